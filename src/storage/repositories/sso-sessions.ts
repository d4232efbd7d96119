import { maybeOne, type Queryable } from '../db.ts';

export const ssoSessionsRepo = {
  insert: (q: Queryable, s: { token_hash: string; user_id: string; auth_time: Date; expires_at: Date }) =>
    q.query('INSERT INTO sso_sessions (token_hash, user_id, auth_time, expires_at) VALUES ($1, $2, $3, $4)', [
      s.token_hash,
      s.user_id,
      s.auth_time,
      s.expires_at,
    ]),

  removeAllOfUser: (q: Queryable, userId: string) =>
    q.query('DELETE FROM sso_sessions WHERE user_id = $1', [userId]),

  /** The live SSO session of a cookie, for a live account. */
  findLive: (q: Queryable, hash: string, now: Date) =>
    maybeOne<{ user_id: string; auth_time: Date }>(
      q,
      `SELECT s.user_id, s.auth_time FROM sso_sessions s JOIN users u ON u.id = s.user_id
       WHERE s.token_hash = $1 AND s.expires_at > $2 AND u.deleted_at IS NULL`,
      [hash, now],
    ),
};
