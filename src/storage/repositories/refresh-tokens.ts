import { maybeOne, type Queryable } from '../db.ts';

export interface RefreshTokenRow {
  token_hash: string;
  session_id: string;
  client_id: string;
  issued_at: Date;
  expires_at: Date;
  rotated_at: Date | null;
  successor_hash: string | null;
}

export type RefreshTokenWithSession = RefreshTokenRow & { user_id: string; session_revoked_at: Date | null };

export const refreshTokensRepo = {
  insert: (
    q: Queryable,
    t: Pick<RefreshTokenRow, 'token_hash' | 'session_id' | 'client_id' | 'issued_at' | 'expires_at'>,
  ) =>
    q.query(
      'INSERT INTO refresh_tokens (token_hash, session_id, client_id, issued_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
      [t.token_hash, t.session_id, t.client_id, t.issued_at, t.expires_at],
    ),

  /**
   * D16: marks a live token rotated and names its successor, in one conditional statement. Under
   * concurrent use exactly one caller gets the row back; the others block on the row lock, then find it
   * rotated.
   */
  claimRotation: (q: Queryable, hash: string, clientId: string, successorHash: string, now: Date) =>
    maybeOne<RefreshTokenRow & { user_id: string }>(
      q,
      `UPDATE refresh_tokens rt SET rotated_at = $4, successor_hash = $3
       FROM sessions s
       WHERE rt.token_hash = $1 AND rt.client_id = $2 AND rt.rotated_at IS NULL AND rt.expires_at > $4
         AND s.id = rt.session_id AND s.revoked_at IS NULL
       RETURNING rt.*, s.user_id`,
      [hash, clientId, successorHash, now],
    ),

  findWithSession: (q: Queryable, hash: string) =>
    maybeOne<RefreshTokenWithSession>(
      q,
      `SELECT rt.*, s.user_id, s.revoked_at AS session_revoked_at
       FROM refresh_tokens rt JOIN sessions s ON s.id = rt.session_id WHERE rt.token_hash = $1`,
      [hash],
    ),
};
