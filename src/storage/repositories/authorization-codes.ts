import { maybeOne, type Queryable } from '../db.ts';

export interface AuthorizationCodeRow {
  code_hash: string;
  client_id: string;
  user_id: string;
  redirect_uri: string;
  scope: string;
  code_challenge: string;
  nonce: string | null;
  auth_time: Date;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
  session_id: string | null;
}

export const authorizationCodesRepo = {
  insert: (q: Queryable, c: Omit<AuthorizationCodeRow, 'used_at' | 'session_id'>) =>
    q.query(
      `INSERT INTO authorization_codes (code_hash, client_id, user_id, redirect_uri, scope, code_challenge, nonce,
         auth_time, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        c.code_hash,
        c.client_id,
        c.user_id,
        c.redirect_uri,
        c.scope,
        c.code_challenge,
        c.nonce,
        c.auth_time,
        c.created_at,
        c.expires_at,
      ],
    ),

  /**
   * D24: single use; marking it used is the race gate. It records at once the id of the session the
   * exchange is about to open (one round trip fewer), so a replay finds what to revoke; if the exchange
   * then fails, no session has that id and the replay revokes nothing.
   */
  consume: (q: Queryable, hash: string, now: Date, sessionId: string) =>
    maybeOne<AuthorizationCodeRow>(
      q,
      'UPDATE authorization_codes SET used_at = $2, session_id = $3 WHERE code_hash = $1 AND used_at IS NULL RETURNING *',
      [hash, now, sessionId],
    ),

  find: (q: Queryable, hash: string) =>
    maybeOne<AuthorizationCodeRow>(q, 'SELECT * FROM authorization_codes WHERE code_hash = $1', [hash]),
};
