import { maybeOne, one, type Queryable } from '../db.ts';
import { all, sql } from '../sql.ts';
import { backchannelLogoutsCte } from './backchannel-logouts.ts';
import { type OutboxEvent, outboxEventCtes } from './outbox.ts';

export interface SessionRow {
  id: string;
  user_id: string;
  client_id: string;
  device_name: string | null;
  platform: string;
  ip_address: string | null;
  auth_time: Date;
  /** how the person proved who they are when the session opened (RFC 8176 names); null where not recorded */
  amr: string[] | null;
  created_at: Date;
  last_used_at: Date;
  revoked_at: Date | null;
  revoke_reason: string | null;
  scope: string;
  /** The head of the session's refresh-token chain */
  refresh_generation: number;
  refresh_hash: string;
  refresh_issued_at: Date;
  refresh_expires_at: Date;
}

export type NewSession = Pick<
  SessionRow,
  'id' | 'user_id' | 'client_id' | 'device_name' | 'platform' | 'ip_address' | 'scope'
> & {
  now: Date;
  /** when the user last proved who they are (OIDC auth_time); defaults to now */
  authTime?: Date;
  /** how they proved it (RFC 8176 names) */
  amr?: string[];
};

/**
 * A live session is one nobody revoked whose refresh token has not run out; `now` is the parameter
 * ($n) holding the current time. GET /sessions, its DELETE and the console's count all mean this one.
 */
export const liveSession = (now: string) => `revoked_at IS NULL AND refresh_expires_at > ${now}`;

/** A session as opened: its row, its first refresh token (D16's chain head) and its session.created event. */
export interface NewSessionWrite {
  session: NewSession;
  firstToken: { hash: string; expires_at: Date };
  created: OutboxEvent;
}

export const sessionsRepo = {
  /**
   * A session, with its first refresh token (D16's chain head) and its session.created event, in
   * one statement: one round trip, atomic without a transaction of its own.
   */
  insert: async (q: Queryable, { session: s, firstToken, created }: NewSessionWrite) => {
    const [row] = await all<SessionRow>(
      q,
      sql`WITH session AS (
          INSERT INTO sessions (id, user_id, client_id, device_name, platform, ip_address, scope, auth_time, amr,
            created_at, last_used_at, refresh_hash, refresh_issued_at, refresh_expires_at)
          VALUES (${s.id}, ${s.user_id}, ${s.client_id}, ${s.device_name}, ${s.platform}, ${s.ip_address},
            ${s.scope}, ${s.authTime ?? s.now}, ${s.amr ?? null}, ${s.now}, ${s.now}, ${firstToken.hash}, ${s.now},
            ${firstToken.expires_at})
          RETURNING *
        ),
        ${outboxEventCtes(created)}
        SELECT * FROM session`,
    );
    return row;
  },

  findById: (q: Queryable, id: string) =>
    maybeOne<SessionRow>(q, 'SELECT * FROM sessions WHERE id = $1', [id]),

  /**
   * A session whose refresh token has run out is over, though nobody revoked it. A page of them,
   * the most recently used first; the id breaks ties, so a page boundary falls in one place.
   */
  listActive: (q: Queryable, userId: string, now: Date, page: { limit: number; offset: number }) =>
    q.query<SessionRow>(
      `SELECT * FROM sessions WHERE user_id = $1 AND ${liveSession('$2')}
       ORDER BY last_used_at DESC, id LIMIT $3 OFFSET $4`,
      [userId, now, page.limit, page.offset],
    ),

  countActive: async (q: Queryable, userId: string, now: Date) =>
    (
      await one<{ n: number }>(
        q,
        `SELECT count(*)::int AS n FROM sessions WHERE user_id = $1 AND ${liveSession('$2')}`,
        [userId, now],
      )
    ).n,

  activeIdsOfClient: async (q: Queryable, clientId: string) =>
    (
      await q.query<{ id: string }>(
        // lower(client_id) is the client's index (migration 030 says why it is on an expression).
        'SELECT id FROM sessions WHERE lower(client_id) = lower($1) AND client_id = $1 AND revoked_at IS NULL',
        [clientId],
      )
    ).map((r) => r.id),

  /** One of the sessions listActive lists. */
  findActiveOfUser: (q: Queryable, id: string, userId: string, now: Date) =>
    maybeOne<SessionRow>(
      q,
      `SELECT * FROM sessions WHERE id = $1 AND user_id = $2 AND ${liveSession('$3')}`,
      [id, userId, now],
    ),

  /** A live session, whoever's. */
  findLive: (q: Queryable, id: string, now: Date) =>
    maybeOne<SessionRow>(q, `SELECT * FROM sessions WHERE id = $1 AND ${liveSession('$2')}`, [id, now]),

  findActive: (q: Queryable, id: string) =>
    maybeOne<SessionRow>(q, 'SELECT * FROM sessions WHERE id = $1 AND revoked_at IS NULL', [id]),

  /** Returns the session only if this call revoked it, so its event is written once. */
  revoke: async (q: Queryable, id: string, reason: string, now: Date) =>
    (await revokeWhere(q, 'id = $3', [now, reason, id]))[0] as SessionRow | undefined,

  /** The user's sessions with one client. */
  revokeAllOfUserClient: (q: Queryable, userId: string, clientId: string, reason: string, now: Date) =>
    revokeWhere(q, 'user_id = $3 AND client_id = $4', [now, reason, userId, clientId]),

  revokeAllOfUser: (q: Queryable, userId: string, reason: string, now: Date) =>
    revokeWhere(q, 'user_id = $3', [now, reason, userId]),
};

/**
 * Revokes the sessions `where` picks ($1 is the time, $2 the reason) that nobody revoked yet, and answers
 * them. P109: in the same statement, each one's back-channel logout, where its client takes them.
 */
const revokeWhere = (q: Queryable, where: string, params: unknown[]) =>
  q.query<SessionRow>(
    `WITH revoked AS (
       UPDATE sessions SET revoked_at = $1, revoke_reason = $2 WHERE ${where} AND revoked_at IS NULL RETURNING *
     ), ${backchannelLogoutsCte('revoked', '$1')}
     SELECT * FROM revoked`,
    params,
  );
