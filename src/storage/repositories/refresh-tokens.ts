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

export type RefreshTokenWithSession = RefreshTokenRow & {
  user_id: string;
  scope: string;
  session_revoked_at: Date | null;
};

export const refreshTokensRepo = {
  /**
   * D16: in one statement (so one round trip, atomic without an explicit transaction): marks a live token
   * rotated, inserts its successor and touches the session (D15's last_used_at). Under concurrent use exactly
   * one caller gets a row back; the others block on the row lock, then find the token rotated.
   *
   * The session is read by primary key in a subquery, which no plan can turn into a join (P57): written as
   * a join with `s.revoked_at IS NULL`, a plan cached while the table was small read every live session
   * through `sessions_user_active` (whose predicate that is), and kept doing so as the table grew.
   */
  rotate: (
    q: Queryable,
    r: { hash: string; clientId: string; successorHash: string; now: Date; expiresAt: Date },
  ) =>
    maybeOne<{ session_id: string; user_id: string; scope: string }>(
      q,
      `WITH claimed AS (
         UPDATE refresh_tokens rt SET rotated_at = $4, successor_hash = $3
         WHERE rt.token_hash = $1 AND rt.client_id = $2 AND rt.rotated_at IS NULL AND rt.expires_at > $4
           AND (SELECT s.revoked_at FROM sessions s WHERE s.id = rt.session_id) IS NULL
         RETURNING rt.session_id
       ), successor AS (
         INSERT INTO refresh_tokens (token_hash, session_id, client_id, issued_at, expires_at)
         SELECT $3, session_id, $2, $4, $5 FROM claimed
       ), touched AS (
         -- last_used_at is shown to the minute; skipping younger touches spares a row write per refresh.
         UPDATE sessions SET last_used_at = $4
         WHERE id = (SELECT session_id FROM claimed) AND last_used_at < $4::timestamptz - interval '60 seconds'
       )
       SELECT id AS session_id, user_id, scope FROM sessions WHERE id = (SELECT session_id FROM claimed)`,
      [r.hash, r.clientId, r.successorHash, r.now, r.expiresAt],
    ),

  findWithSession: (q: Queryable, hash: string) =>
    maybeOne<RefreshTokenWithSession>(
      q,
      `SELECT rt.*, s.user_id, s.scope, s.revoked_at AS session_revoked_at
       FROM refresh_tokens rt JOIN sessions s ON s.id = rt.session_id WHERE rt.token_hash = $1`,
      [hash],
    ),
};
