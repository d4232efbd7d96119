import { maybeOne, type Queryable } from '../db.ts';

export const ssoSessionsRepo = {
  insert: (q: Queryable, s: { token_hash: string; user_id: string; auth_time: Date; expires_at: Date }) =>
    q.query('INSERT INTO sso_sessions (token_hash, user_id, auth_time, expires_at) VALUES ($1, $2, $3, $4)', [
      s.token_hash,
      s.user_id,
      s.auth_time,
      s.expires_at,
    ]),

  remove: (q: Queryable, hash: string) => q.query('DELETE FROM sso_sessions WHERE token_hash = $1', [hash]),

  removeAllOfUser: (q: Queryable, userId: string) =>
    q.query('DELETE FROM sso_sessions WHERE user_id = $1', [userId]),

  /**
   * The live SSO session of a cookie, for a live account. The account is read by primary key in a
   * subquery (P57): a join with `u.deleted_at IS NULL` can be planned as a read of every live user through
   * a partial index with that predicate.
   */
  findLive: (q: Queryable, hash: string, now: Date) =>
    maybeOne<{ user_id: string; auth_time: Date }>(
      q,
      `SELECT s.user_id, s.auth_time FROM sso_sessions s
       WHERE s.token_hash = $1 AND s.expires_at > $2
         AND (SELECT u.deleted_at FROM users u WHERE u.id = s.user_id) IS NULL`,
      [hash, now],
    ),
};
