// A proof-of-work challenge that needs no third party (ALTCHA's open format, v1), asked of a send while the
// SMS defence wants proof that a person, not a script, is asking.
//
// Rules it enforces:
// - A challenge is signed with a key of this service and lives CHALLENGE_TTL_SECONDS (by the service's clock).
// - A solution counts only with a valid signature, the right number, an unexpired challenge, and only once
//   (storage/rules/challenge-uses.ts); a missing, wrong, expired or reused one is CHALLENGE_REQUIRED again,
//   with a fresh challenge to solve.
import { createChallenge, extractParams, verifySolution } from 'altcha-lib';
import type { Challenge } from 'altcha-lib/types';
import { addSeconds, type Clock } from '../../providers/clock.ts';
import type { Database } from '../../storage/db.ts';
import { useChallenge } from '../../storage/rules/challenge-uses.ts';
import { DomainError } from '../errors.ts';
import type { PersonCheck, SendProof } from './person-check.ts';

export const CHALLENGE_TTL_SECONDS = 600;

export interface ChallengeDeps {
  db: Database;
  clock: Clock;
  /** the HMAC key challenges are signed with */
  hmacKey: string;
  /** the largest number a challenge's answer may be: about a second of work on a phone at 250,000 */
  maxNumber: number;
}

/** What a client sends back: ALTCHA's payload, base64 of `{algorithm, challenge, number, salt, signature}`. */
interface Solution {
  challenge: string;
}

function decode(solution: string): Solution | undefined {
  try {
    const payload: unknown = JSON.parse(Buffer.from(solution, 'base64').toString('utf8'));
    if (typeof payload !== 'object' || payload === null || !('challenge' in payload)) return undefined;
    return typeof payload.challenge === 'string' ? { challenge: payload.challenge } : undefined;
  } catch {
    return undefined;
  }
}

export class ChallengeService implements PersonCheck {
  constructor(private readonly d: ChallengeDeps) {}

  /** A fresh signed challenge. */
  issue(): Promise<Challenge> {
    return createChallenge({
      algorithm: 'SHA-256',
      hmacKey: this.d.hmacKey,
      maxnumber: this.d.maxNumber,
      expires: addSeconds(this.d.clock.now(), CHALLENGE_TTL_SECONDS),
    });
  }

  /** CHALLENGE_REQUIRED, carrying a fresh challenge to solve. */
  async required(
    message = 'solve the challenge, then send again with challenge_solution',
  ): Promise<DomainError> {
    return new DomainError('CHALLENGE_REQUIRED', message, { challenge: await this.issue() });
  }

  /** Uses a solution up, or throws CHALLENGE_REQUIRED. */
  async redeem({ challengeSolution: solution }: SendProof): Promise<void> {
    const decoded = solution && solution.length <= 4096 ? decode(solution) : undefined;
    if (!solution || !decoded) throw await this.required();
    const valid = await verifySolution(solution, this.d.hmacKey, false).catch(() => false);
    const expires = Number(extractParams(solution).expires) * 1000;
    const now = this.d.clock.now();
    if (!valid || !Number.isFinite(expires) || expires <= now.getTime())
      throw await this.required('the challenge was not solved, or has expired; solve this one');
    if (!(await useChallenge(this.d.db, decoded.challenge, new Date(expires))))
      throw await this.required('this solution was used already; solve this one');
  }
}
