import type { Queryable } from '../db.ts';
import { all, first, one, type Sql, sql } from '../sql.ts';
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
  /** RFC 9449: the DPoP key a public client's refresh tokens are bound to; null when unbound */
  dpop_jkt: string | null;
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
  /** the DPoP key its refresh tokens are bound to */
  dpopJkt?: string | null;
};

/**
 * A live session is one nobody revoked whose refresh token has not run out; `now` is the parameter
 * ($n) holding the current time. GET /sessions, its DELETE and the console's count all mean this one.
 */
export const liveSession = (now: Date): Sql => sql`revoked_at IS NULL AND refresh_expires_at > ${now}`;

/** A session as opened: its row, its first refresh token (D16's chain head) and its session.created event. */
export interface NewSessionWrite {
  session: NewSession;
  firstToken: { hash: string; expires_at: Date };
  created: OutboxEvent;
}

/**
 * The CTEs `session` (the new session's row, with its first refresh token), `event` and `deliveries` (its
 * session.created event). With `onlyFor` (a FROM clause and its WHERE), the session opens only for a row of it.
 */
export function newSessionCtes({ session: s, firstToken, created }: NewSessionWrite, onlyFor?: Sql): Sql {
  return sql`session AS (
      INSERT INTO sessions (id, user_id, client_id, device_name, platform, ip_address, scope, auth_time, amr,
        created_at, last_used_at, refresh_hash, refresh_issued_at, refresh_expires_at, dpop_jkt)
      SELECT ${s.id}::uuid, ${s.user_id}::uuid, ${s.client_id}::text, ${s.device_name}::text, ${s.platform}::text,
        ${s.ip_address}::text, ${s.scope}::text, ${s.authTime ?? s.now}::timestamptz, ${s.amr ?? null}::text[],
        ${s.now}::timestamptz, ${s.now}::timestamptz, ${firstToken.hash}::text, ${s.now}::timestamptz,
        ${firstToken.expires_at}::timestamptz, ${s.dpopJkt ?? null}::text
      ${onlyFor ?? sql``}
      RETURNING *
    ),
    ${outboxEventCtes(created, sql`session`)}`;
}

export const sessionsRepo = {
  /**
   * A session, with its first refresh token (D16's chain head) and its session.created event, in
   * one statement: one round trip, atomic without a transaction of its own.
   */
  insert: async (q: Queryable, write: NewSessionWrite) => {
    const [row] = await all<SessionRow>(q, sql`WITH ${newSessionCtes(write)} SELECT * FROM session`);
    return row;
  },

  findById: (q: Queryable, id: string) => first<SessionRow>(q, sql`SELECT * FROM sessions WHERE id = ${id}`),

  /**
   * A session whose refresh token has run out is over, though nobody revoked it. A page of them,
   * the most recently used first; the id breaks ties, so a page boundary falls in one place.
   */
  listActive: (q: Queryable, userId: string, now: Date, page: { limit: number; offset: number }) =>
    all<SessionRow>(
      q,
      sql`SELECT * FROM sessions WHERE user_id = ${userId} AND ${liveSession(now)}
       ORDER BY last_used_at DESC, id LIMIT ${page.limit} OFFSET ${page.offset}`,
    ),

  countActive: async (q: Queryable, userId: string, now: Date) =>
    (
      await one<{ n: number }>(
        q,
        sql`SELECT count(*)::int AS n FROM sessions WHERE user_id = ${userId} AND ${liveSession(now)}`,
      )
    ).n,

  activeIdsOfClient: async (q: Queryable, clientId: string) =>
    (
      await all<{ id: string }>(
        q,
        // lower(client_id) is the client's index (migration 030 says why it is on an expression).
        sql`SELECT id FROM sessions
            WHERE lower(client_id) = lower(${clientId}) AND client_id = ${clientId} AND revoked_at IS NULL`,
      )
    ).map((r) => r.id),

  /** One of the sessions listActive lists. */
  findActiveOfUser: (q: Queryable, id: string, userId: string, now: Date) =>
    first<SessionRow>(
      q,
      sql`SELECT * FROM sessions WHERE id = ${id} AND user_id = ${userId} AND ${liveSession(now)}`,
    ),

  /** A live session, whoever's. */
  findLive: (q: Queryable, id: string, now: Date) =>
    first<SessionRow>(q, sql`SELECT * FROM sessions WHERE id = ${id} AND ${liveSession(now)}`),

  findActive: (q: Queryable, id: string) =>
    first<SessionRow>(q, sql`SELECT * FROM sessions WHERE id = ${id} AND revoked_at IS NULL`),

  /** Returns the session only if this call revoked it, so its event is written once. */
  revoke: async (q: Queryable, id: string, reason: string, now: Date) =>
    (await revokeWhere(q, sql`id = ${id}`, now, reason))[0] as SessionRow | undefined,

  /** The user's sessions with one client. */
  revokeAllOfUserClient: (q: Queryable, userId: string, clientId: string, reason: string, now: Date) =>
    revokeWhere(q, sql`user_id = ${userId} AND client_id = ${clientId}`, now, reason),

  revokeAllOfUser: (q: Queryable, userId: string, reason: string, now: Date) =>
    revokeWhere(q, sql`user_id = ${userId}`, now, reason),

  /** Every session of the user but `keep` (none kept when it is null). */
  revokeOthersOfUser: (q: Queryable, userId: string, keep: string | null, reason: string, now: Date) =>
    revokeWhere(q, sql`user_id = ${userId} AND (${keep}::uuid IS NULL OR id <> ${keep}::uuid)`, now, reason),
};

/**
 * Revokes the sessions `where` picks that nobody revoked yet, and answers them. In the same statement, each
 * one's back-channel logout, where its client takes them (P109).
 */
const revokeWhere = (q: Queryable, where: Sql, now: Date, reason: string) =>
  all<SessionRow>(
    q,
    sql`WITH revoked AS (
       UPDATE sessions SET revoked_at = ${now}, revoke_reason = ${reason}
       WHERE ${where} AND revoked_at IS NULL RETURNING *
     ), ${backchannelLogoutsCte('revoked', now)}
     SELECT * FROM revoked`,
  );
