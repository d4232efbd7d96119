import { maybeOne, one, type Queryable } from '../db.ts';
import { backchannelLogoutsCte } from './backchannel-logouts.ts';
import { type OutboxEvent, outboxCtes, outboxParams, paramsFrom, type SqlValues } from './outbox.ts';
import { resetLiveAccountCte, type UserRow } from './users.ts';

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
  /** P59: the head of the session's refresh-token chain (D16) */
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
};

/**
 * D15, P59: a live session is one nobody revoked whose refresh token has not run out; `now` is the parameter
 * ($n) holding the current time. GET /sessions, its DELETE and the console's count all mean this one.
 */
export const liveSession = (now: string) => `revoked_at IS NULL AND refresh_expires_at > ${now}`;

/** A session as opened: its row, its first refresh token (D16's chain head, P59) and its session.created event. */
export interface NewSessionWrite {
  session: NewSession;
  firstToken: { hash: string; expires_at: Date };
  created: OutboxEvent;
}

/**
 * The session and its session.created event as CTEs (`session`, `event`, `deliveries`) of a statement; `v`
 * gives their values, in the order of `sessionParams`. With `only`, the session is written only for each row
 * of the statement's earlier CTEs (`from`) that meets `where`, and then its event too, for each row of
 * `eventFrom` (by default, of `session`).
 */
export function sessionCtes(
  v: SqlValues,
  only?: { from: string; where: string; eventFrom?: string },
): string {
  return `session AS (
       INSERT INTO sessions (id, user_id, client_id, device_name, platform, ip_address, scope, auth_time, created_at,
         last_used_at, refresh_hash, refresh_issued_at, refresh_expires_at)
       SELECT ${[0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 9, 8, 10].map(v).join(', ')}
       ${only ? `FROM ${only.from} WHERE ${only.where}` : ''}
       RETURNING *
     ), ${outboxCtes((i) => v(11 + i), only ? (only.eventFrom ?? 'session') : undefined)}`;
}

/**
 * P51, P80, P88: the account whose PIN was just found correct, held while its D9 count is reset
 * (`resetLiveAccountCte`, CTE `account`), and the session with its event, written only when the account is
 * live, the operator has not locked it and its PIN is still the one checked. The session's values are the
 * parameters from $1 on (`sessionParams`, whose second is the account's id); the version checked follows them.
 */
const sessionForSignInCtes = (pinVersion: string) =>
  `${resetLiveAccountCte('$2', pinVersion)}, ${sessionCtes(paramsFrom(1), {
    from: 'account',
    where: 'account.admin_locked_at IS NULL',
  })}`;

/** A session's values as statement parameters, in the order of `SESSION_COLUMNS`. */
export const sessionParams = ({ session: s, firstToken, created }: NewSessionWrite) => [
  s.id,
  s.user_id,
  s.client_id,
  s.device_name,
  s.platform,
  s.ip_address,
  s.scope,
  s.authTime ?? s.now,
  s.now,
  firstToken.hash,
  firstToken.expires_at,
  ...outboxParams(created),
];

/**
 * P85: the names and types of `sessionParams`' values, in its order, for a statement that writes many
 * sessions, a row of values each (`batchInput`).
 */
export const SESSION_COLUMNS = [
  ['id', 'uuid'],
  ['user_id', 'uuid'],
  ['client_id', 'text'],
  ['device_name', 'text'],
  ['platform', 'text'],
  ['ip_address', 'text'],
  ['scope', 'text'],
  ['auth_time', 'timestamptz'],
  ['now', 'timestamptz'],
  ['refresh_hash', 'text'],
  ['refresh_expires_at', 'timestamptz'],
  ['event_id', 'uuid'],
  ['event_type', 'text'],
  ['event_data', 'text'],
  ['event_at', 'timestamptz'],
] as const;

export const sessionsRepo = {
  /**
   * A session, with its first refresh token (D16's chain head, P59) and its session.created event (D32), in
   * one statement: one round trip, atomic without a transaction of its own.
   */
  insert: (q: Queryable, s: NewSessionWrite) =>
    one<SessionRow>(q, `WITH ${sessionCtes(paramsFrom(1))} SELECT * FROM session`, sessionParams(s)),

  /**
   * P51, P80, P88: a sign-in's session and its event, opened only for a live account that the operator has not
   * locked and whose PIN is still the one checked (`pinVersion`), whose row the statement holds while it resets
   * D9's count (`sessionForSignInCtes`); one statement, atomic without a transaction. Undefined when the
   * account is gone or its PIN changed; otherwise the account as reset and whether the session was opened.
   */
  insertForSignIn: async (q: Queryable, s: NewSessionWrite, pinVersion: number) => {
    const params = sessionParams(s);
    const row = await maybeOne<UserRow & { opened: boolean }>(
      q,
      `WITH ${sessionForSignInCtes(`$${params.length + 1}`)}
       SELECT EXISTS (SELECT 1 FROM session) AS opened, account.* FROM account`,
      [...params, pinVersion],
    );
    if (!row) return undefined;
    const { opened, ...account } = row;
    return { opened, account: account as UserRow };
  },

  findById: (q: Queryable, id: string) =>
    maybeOne<SessionRow>(q, 'SELECT * FROM sessions WHERE id = $1', [id]),

  /**
   * D15: a session whose refresh token has run out (P59) is over, though nobody revoked it. A page of them
   * (P73), the most recently used first; the id breaks ties, so a page boundary falls in one place.
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
      await q.query<{ id: string }>('SELECT id FROM sessions WHERE client_id = $1 AND revoked_at IS NULL', [
        clientId,
      ])
    ).map((r) => r.id),

  /** One of the sessions listActive lists. */
  findActiveOfUser: (q: Queryable, id: string, userId: string, now: Date) =>
    maybeOne<SessionRow>(
      q,
      `SELECT * FROM sessions WHERE id = $1 AND user_id = $2 AND ${liveSession('$3')}`,
      [id, userId, now],
    ),

  /** A live session (D15), whoever's. */
  findLive: (q: Queryable, id: string, now: Date) =>
    maybeOne<SessionRow>(q, `SELECT * FROM sessions WHERE id = $1 AND ${liveSession('$2')}`, [id, now]),

  findActive: (q: Queryable, id: string) =>
    maybeOne<SessionRow>(q, 'SELECT * FROM sessions WHERE id = $1 AND revoked_at IS NULL', [id]),

  /** Returns the session only if this call revoked it, so its event is written once. */
  revoke: async (q: Queryable, id: string, reason: string, now: Date) =>
    (await revokeWhere(q, 'id = $3', [now, reason, id]))[0] as SessionRow | undefined,

  /** P102: the user's sessions with one client. */
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
