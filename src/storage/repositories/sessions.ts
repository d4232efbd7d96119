import { maybeOne, one, type Queryable } from '../db.ts';
import { type OutboxEvent, outboxCtes, outboxParams } from './outbox.ts';

export interface SessionRow {
  id: string;
  user_id: string;
  client_id: string;
  device_name: string | null;
  platform: string;
  ip_address: string | null;
  auth_time: Date;
  created_at: Date;
  last_used_at: Date;
  revoked_at: Date | null;
  revoke_reason: string | null;
  scope: string;
}

export type NewSession = Pick<
  SessionRow,
  'id' | 'user_id' | 'client_id' | 'device_name' | 'platform' | 'ip_address' | 'scope'
> & {
  now: Date;
  /** when the user last proved who they are (OIDC auth_time); defaults to now */
  authTime?: Date;
};

export const sessionsRepo = {
  /**
   * A session, its first refresh token (D16's family root) and its session.created event (D32) in one
   * statement: one round trip, atomic without a transaction of its own, and the token's foreign key is
   * checked at the end of the statement, when the session row exists.
   */
  insert: (
    q: Queryable,
    s: NewSession,
    firstToken: { token_hash: string; expires_at: Date },
    created: OutboxEvent,
  ) =>
    one<SessionRow>(
      q,
      `WITH session AS (
         INSERT INTO sessions (id, user_id, client_id, device_name, platform, ip_address, scope, auth_time, created_at, last_used_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) RETURNING *
       ), token AS (
         INSERT INTO refresh_tokens (token_hash, session_id, client_id, issued_at, expires_at)
         SELECT $10, id, client_id, created_at, $11 FROM session
       ), ${outboxCtes(12)}
       SELECT * FROM session`,
      [
        s.id,
        s.user_id,
        s.client_id,
        s.device_name,
        s.platform,
        s.ip_address,
        s.scope,
        s.authTime ?? s.now,
        s.now,
        firstToken.token_hash,
        firstToken.expires_at,
        ...outboxParams(created),
      ],
    ),

  listActive: (q: Queryable, userId: string) =>
    q.query<SessionRow>(
      'SELECT * FROM sessions WHERE user_id = $1 AND revoked_at IS NULL ORDER BY last_used_at DESC',
      [userId],
    ),

  activeIdsOfClient: async (q: Queryable, clientId: string) =>
    (
      await q.query<{ id: string }>('SELECT id FROM sessions WHERE client_id = $1 AND revoked_at IS NULL', [
        clientId,
      ])
    ).map((r) => r.id),

  findActiveOfUser: (q: Queryable, id: string, userId: string) =>
    maybeOne<SessionRow>(q, 'SELECT * FROM sessions WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL', [
      id,
      userId,
    ]),

  findActive: (q: Queryable, id: string) =>
    maybeOne<SessionRow>(q, 'SELECT * FROM sessions WHERE id = $1 AND revoked_at IS NULL', [id]),

  touch: (q: Queryable, id: string, now: Date) =>
    q.query('UPDATE sessions SET last_used_at = $2 WHERE id = $1', [id, now]),

  /** Returns the session only if this call revoked it, so its event is written once. */
  revoke: (q: Queryable, id: string, reason: string, now: Date) =>
    maybeOne<SessionRow>(
      q,
      'UPDATE sessions SET revoked_at = $3, revoke_reason = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING *',
      [id, reason, now],
    ),

  revokeAllOfUser: (q: Queryable, userId: string, reason: string, now: Date) =>
    q.query<SessionRow>(
      'UPDATE sessions SET revoked_at = $3, revoke_reason = $2 WHERE user_id = $1 AND revoked_at IS NULL RETURNING *',
      [userId, reason, now],
    ),
};
