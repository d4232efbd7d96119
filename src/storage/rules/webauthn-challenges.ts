// A passkey ceremony's challenge: what makes a signed answer fresh.
//
// Rules it enforces:
// - A challenge is used once: the statement that marks it used is the race gate, so of parallel answers with
//   the same challenge exactly one goes on; the others find it used.
// - It is bound to its purpose (a registration's does not sign in, nor the other way round) and, for a
//   registration, to the account it was given to.
// - It expires: after its lifetime it is refused, used or not.
// - Only its hash is kept.
import type { Queryable } from '../db.ts';
import { all, first, sql } from '../sql.ts';

export type ChallengePurpose = 'registration' | 'authentication';

export interface NewChallenge {
  hash: string;
  purpose: ChallengePurpose;
  /** the account a registration's challenge was given to; none for a sign-in's */
  userId: string | null;
  createdAt: Date;
  expiresAt: Date;
}

export async function storeChallenge(q: Queryable, c: NewChallenge): Promise<void> {
  await all(
    q,
    sql`INSERT INTO webauthn_challenges (challenge_hash, purpose, user_id, created_at, expires_at)
      VALUES (${c.hash}, ${c.purpose}, ${c.userId}, ${c.createdAt}, ${c.expiresAt})`,
  );
}

/** Marks the challenge (by its hash) used; false when it is unknown, used, expired or not this one's. */
export async function useChallenge(
  q: Queryable,
  use: { hash: string; purpose: ChallengePurpose; userId: string | null; now: Date },
): Promise<boolean> {
  const row = await first<{ used: boolean }>(
    q,
    sql`UPDATE webauthn_challenges SET used_at = ${use.now}
      WHERE challenge_hash = ${use.hash} AND purpose = ${use.purpose}
        AND user_id IS NOT DISTINCT FROM ${use.userId}::uuid
        AND used_at IS NULL AND expires_at > ${use.now}
      RETURNING true AS used`,
  );
  return row?.used === true;
}
