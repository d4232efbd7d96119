// The challenge an app's attestation is made over: one of this service's, asked for just before the send.
//
// Rules it enforces:
// - A challenge is 18 random bytes with its end (ATTESTATION_CHALLENGE_SECONDS after it was issued), signed
//   with this service's key (HMAC-SHA256). One this service did not sign, or past its end, is `stale`.
// - A challenge is used once (storage/rules/challenge-uses.ts, the proof-of-work challenge's own record): a
//   second use is `replayed`, also when two arrive at once (one insert wins).
import { createHmac, randomBytes } from 'node:crypto';
import type { Database } from '../../storage/db.ts';
import { useChallenge } from '../../storage/rules/challenge-uses.ts';
import { safeEqual } from '../crypto.ts';
import type { AttestationRefusal } from './integrity-verdict.ts';

export const ATTESTATION_CHALLENGE_SECONDS = 120;
/** A challenge is this long at most: what a request may carry. */
export const ATTESTATION_CHALLENGE_MAX_LENGTH = 100;

const mac = (key: Buffer, body: string) => createHmac('sha256', key).update(body).digest('base64url');

/** A new challenge, and the seconds it lives. */
export function issueChallenge(key: Buffer, now: Date) {
  const ends = Math.floor(now.getTime() / 1000) + ATTESTATION_CHALLENGE_SECONDS;
  const body = `${randomBytes(18).toString('base64url')}.${ends}`;
  return { challenge: `${body}.${mac(key, body)}`, expires_in: ATTESTATION_CHALLENGE_SECONDS };
}

/** Uses the challenge up: undefined when it was this service's, live and unused; else why not. */
export async function useAttestationChallenge(
  d: { db: Database; key: Buffer },
  challenge: string,
  now: Date,
): Promise<AttestationRefusal | undefined> {
  const [random, ends, signature] = challenge.split('.');
  const body = `${random}.${ends}`;
  const endsAt = Number(ends) * 1000;
  if (!random || !signature || !safeEqual(signature, mac(d.key, body))) return 'stale';
  if (!Number.isFinite(endsAt) || endsAt <= now.getTime()) return 'stale';
  return (await useChallenge(d.db, challenge, new Date(endsAt))) ? undefined : 'replayed';
}
