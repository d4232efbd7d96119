import type { Queryable } from '../db.ts';
import { all, first, sql } from '../sql.ts';

export const ssoSessionsRepo = {
  /** A single sign-on; written in the transaction that holds its account (rules/sign-in-hold.ts). */
  insert: async (
    q: Queryable,
    s: { token_hash: string; user_id: string; auth_time: Date; amr: string[]; expires_at: Date },
  ) => {
    await all(
      q,
      sql`INSERT INTO sso_sessions (token_hash, user_id, auth_time, expires_at, amr)
          VALUES (${s.token_hash}, ${s.user_id}, ${s.auth_time}, ${s.expires_at}, ${s.amr})`,
    );
  },

  remove: (q: Queryable, hash: string) => all(q, sql`DELETE FROM sso_sessions WHERE token_hash = ${hash}`),

  removeAllOfUser: (q: Queryable, userId: string) =>
    all(q, sql`DELETE FROM sso_sessions WHERE user_id = ${userId}`),

  /** Every single sign-on of the user but the one of `keepHash` (none kept when it is null). */
  removeOthersOfUser: (q: Queryable, userId: string, keepHash: string | null) =>
    all(
      q,
      sql`DELETE FROM sso_sessions
        WHERE user_id = ${userId} AND (${keepHash}::text IS NULL OR token_hash <> ${keepHash}::text)`,
    ),

  /**
   * The live SSO session of a cookie, for a live account, with the version of the account's PIN (that of the
   * sign-in, checked as it was written). The account is read by primary key in a subquery: a join with
   * `u.deleted_at IS NULL` can be planned as a read of every live user through an index with that predicate.
   */
  findLive: (q: Queryable, hash: string, now: Date) =>
    first<{ user_id: string; auth_time: Date; amr: string[] | null; pin_version: number }>(
      q,
      sql`SELECT s.user_id, s.auth_time, s.amr, u.pin_version FROM sso_sessions s, LATERAL (
         SELECT pin_version FROM users WHERE id = s.user_id AND deleted_at IS NULL OFFSET 0
       ) u
       WHERE s.token_hash = ${hash} AND s.expires_at > ${now}`,
    ),
};
