import { maybeOne, type Queryable } from '../db.ts';
import { type NewSessionWrite, SESSION_PARAM, sessionForLiveAccountCtes, sessionParams } from './sessions.ts';
import type { UserRow } from './users.ts';

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
   * D24: single use; marking it used is the race gate. For a code that opens nothing (a check failed), so
   * that it cannot be tried again.
   */
  consume: (q: Queryable, hash: string, now: Date) =>
    maybeOne<{ code_hash: string }>(
      q,
      'UPDATE authorization_codes SET used_at = $2 WHERE code_hash = $1 AND used_at IS NULL RETURNING code_hash',
      [hash, now],
    ),

  /**
   * D24, D15: the exchange in one statement, atomic without a transaction: the code marked used with the id of
   * the session it opens (a replay finds what to revoke), and the session with its event, opened only while
   * the client is live (P23, P55) and the account live and not locked (P51). Their rows are held FOR SHARE,
   * so a deletion or lock committing meanwhile is either seen or waits, and then also ends this session.
   * Undefined when the code was used already (a replay, or a lost race); otherwise whether the session was
   * opened, whether the client is live, and the account (undefined when gone).
   */
  redeem: async (q: Queryable, hash: string, opening: NewSessionWrite) => {
    const params = [...sessionParams(opening), hash];
    const at = params.length; // the code's hash, after the session's values
    const p = SESSION_PARAM;
    const row = await maybeOne<UserRow & { opened: boolean; client_live: boolean }>(
      q,
      `WITH code AS (
         UPDATE authorization_codes SET used_at = ${p.now}, session_id = ${p.id}
         WHERE code_hash = $${at} AND used_at IS NULL RETURNING code_hash
       ), client AS (
         SELECT client_id FROM clients WHERE client_id = ${p.clientId} AND deleted_at IS NULL FOR SHARE
       ), ${sessionForLiveAccountCtes(['code', 'client'])}
       SELECT EXISTS (SELECT 1 FROM session) AS opened, EXISTS (SELECT 1 FROM client) AS client_live, account.*
       FROM code LEFT JOIN account ON true`,
      params,
    );
    if (!row) return undefined;
    const { opened, client_live: clientLive, ...account } = row;
    return opened
      ? { opened, account: account as UserRow }
      : { opened, clientLive, account: account.id ? (account as UserRow) : undefined };
  },

  find: (q: Queryable, hash: string) =>
    maybeOne<AuthorizationCodeRow>(q, 'SELECT * FROM authorization_codes WHERE code_hash = $1', [hash]),
};
