// A passkey ceremony's challenge: made from the crypto RNG, kept as a hash, used once within its lifetime
// (the statement is storage/rules/webauthn-challenges.ts).
import type { Clock } from '../../providers/clock.ts';
import { addSeconds } from '../../providers/clock.ts';
import type { Random } from '../../providers/random.ts';
import type { Database } from '../../storage/db.ts';
import {
  type ChallengePurpose,
  storeChallenge,
  useChallenge,
} from '../../storage/rules/webauthn-challenges.ts';
import { sha256 } from '../crypto.ts';

/** How long a ceremony's challenge may be answered, and how long the browser is asked to wait. */
export const CEREMONY_SECONDS = 300;
const CHALLENGE_BYTES = 32;

export class CeremonyChallenges {
  constructor(private readonly d: { db: Database; clock: Clock; random: Random }) {}

  /** A new challenge for this purpose (and, for a registration, this account), kept until it is used. */
  async issue(purpose: ChallengePurpose, userId: string | null): Promise<Uint8Array<ArrayBuffer>> {
    const challenge = new Uint8Array(this.d.random.bytes(CHALLENGE_BYTES));
    const createdAt = this.d.clock.now();
    await storeChallenge(this.d.db, {
      hash: sha256(Buffer.from(challenge).toString('base64url')),
      purpose,
      userId,
      createdAt,
      expiresAt: addSeconds(createdAt, CEREMONY_SECONDS),
    });
    return challenge;
  }

  /**
   * Uses the challenge the answer's client data carries: answers it (base64url) when it was issued for this
   * purpose and account, is unused and has not expired; undefined otherwise, and for client data that is not
   * JSON with a challenge.
   */
  async use(
    purpose: ChallengePurpose,
    userId: string | null,
    clientDataJSON: string,
  ): Promise<string | undefined> {
    const challenge = challengeOf(clientDataJSON);
    if (!challenge) return undefined;
    const used = await useChallenge(this.d.db, {
      hash: sha256(challenge),
      purpose,
      userId,
      now: this.d.clock.now(),
    });
    return used ? challenge : undefined;
  }
}

function challengeOf(clientDataJSON: string): string | undefined {
  try {
    const data: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    const challenge = typeof data === 'object' && data !== null ? Reflect.get(data, 'challenge') : undefined;
    return typeof challenge === 'string' && challenge.length <= 256 ? challenge : undefined;
  } catch {
    return undefined;
  }
}
