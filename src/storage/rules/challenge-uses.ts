// Using a solved proof-of-work challenge (the SMS toll-fraud defence's challenge).
//
// Rules it enforces:
// - A solution is used once: the first send that presents it records its challenge, and every later one
//   finds it recorded and is refused, also when two arrive at once (one insert wins).
// - A use is kept until its challenge expires, so a solution can never be used again while it would verify.
import type { Queryable } from '../db.ts';
import { all, sql } from '../sql.ts';

/** Records the use of a solved challenge; true if this call was its first use. */
export async function useChallenge(q: Queryable, challenge: string, expiresAt: Date): Promise<boolean> {
  const used = await all(
    q,
    sql`INSERT INTO challenge_uses (challenge, expires_at) VALUES (${challenge}, ${expiresAt})
      ON CONFLICT (challenge) DO NOTHING RETURNING challenge`,
  );
  return used.length === 1;
}
