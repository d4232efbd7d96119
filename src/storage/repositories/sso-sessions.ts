import { maybeOne, type Queryable } from '../db.ts';

export const ssoSessionsRepo = {
  /**
   * A single sign-on, written only while its account is live, not locked by the operator and
   * its PIN is the one the sign-in proved (`pin_version`). The account's row is held FOR SHARE: a PIN reset or
   * a lock committing meanwhile (each ends every sign-on of the account in its transaction) is seen, or this
   * waits for it and then sees it. So every stored sign-on is of its account's current PIN. False when nothing
   * was written.
   */
  insertForPin: async (
    q: Queryable,
    s: {
      token_hash: string;
      user_id: string;
      auth_time: Date;
      amr: string[];
      expires_at: Date;
      pin_version: number;
    },
  ) =>
    (
      await q.query(
        `INSERT INTO sso_sessions (token_hash, user_id, auth_time, expires_at, amr)
         SELECT $1, id, $3, $4, $6 FROM users
         WHERE id = $2 AND deleted_at IS NULL AND admin_locked_at IS NULL AND pin_version = $5 FOR SHARE
         RETURNING token_hash`,
        [s.token_hash, s.user_id, s.auth_time, s.expires_at, s.pin_version, s.amr],
      )
    ).length > 0,

  remove: (q: Queryable, hash: string) => q.query('DELETE FROM sso_sessions WHERE token_hash = $1', [hash]),

  removeAllOfUser: (q: Queryable, userId: string) =>
    q.query('DELETE FROM sso_sessions WHERE user_id = $1', [userId]),

  /**
   * The live SSO session of a cookie, for a live account, with the version of the account's PIN (P88: that of
   * the sign-in, `insertForPin`). The account is read by primary key in a subquery: a join with
   * `u.deleted_at IS NULL` can be planned as a read of every live user through an index with that predicate.
   */
  findLive: (q: Queryable, hash: string, now: Date) =>
    maybeOne<{ user_id: string; auth_time: Date; amr: string[] | null; pin_version: number }>(
      q,
      `SELECT s.user_id, s.auth_time, s.amr, u.pin_version FROM sso_sessions s, LATERAL (
         SELECT pin_version FROM users WHERE id = s.user_id AND deleted_at IS NULL OFFSET 0
       ) u
       WHERE s.token_hash = $1 AND s.expires_at > $2`,
      [hash, now],
    ),
};
