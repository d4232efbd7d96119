// Using an initial access token (RFC 7591 §3): what lets a client register itself.
//
// Rules it enforces:
// - A token registers a client only before it expires and while it has uses left; each registration takes
//   one use, in one statement, so two registrations at once cannot both take the last one.
import type { Queryable } from '../db.ts';
import { all, sql } from '../sql.ts';

/** Takes one use of the token of this hash; false when it is unknown, expired or used up. */
export async function useInitialAccessToken(q: Queryable, tokenHash: string, now: Date): Promise<boolean> {
  const used = await all(
    q,
    sql`UPDATE initial_access_tokens SET uses_left = uses_left - 1
      WHERE token_hash = ${tokenHash} AND expires_at > ${now} AND uses_left > 0 RETURNING token_hash`,
  );
  return used.length === 1;
}
