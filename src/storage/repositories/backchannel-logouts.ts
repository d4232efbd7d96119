import type { Queryable } from '../db.ts';
import { type ClaimBounds, claimDueRows, type SentRows } from '../send-claims.ts';
import { all, first, type Sql, sql } from '../sql.ts';

export type LogoutStatus = 'pending' | 'delivered' | 'failed';

/** A claimed back-channel logout with what sending it needs: the ended session and where its client listens. */
export interface ClaimedLogout {
  id: string;
  attempts: number;
  locked_until: Date;
  client_id: string;
  session_id: string;
  user_id: string;
  url: string;
  /** the JWS algorithm of the client's ID tokens, which its logout tokens share */
  id_token_signed_response_alg: string;
}

/** A logout as operators see it (the token is made at each attempt and never kept). */
export interface LogoutRow {
  id: string;
  client_id: string;
  session_id: string;
  user_id: string;
  status: LogoutStatus;
  attempts: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  created_at: Date;
}

export interface LogoutResult {
  started_at: Date;
  status_code: number | null;
  error: string | null;
  status: LogoutStatus;
  attempts: number;
  next_attempt_at: Date | null;
}

/**
 * A CTE (`logouts`) writing one back-channel logout, due at once, for each session of `from` (a CTE of
 * revoked session rows) whose live client registered a logout URI; `now` is the time.
 */
export const backchannelLogoutsCte = (from: string, now: Date): Sql => sql`logouts AS (
       INSERT INTO backchannel_logouts (id, client_id, session_id, user_id, next_attempt_at, created_at)
       SELECT time_ordered_uuid(), s.client_id, s.id, s.user_id, ${now}::timestamptz, ${now}::timestamptz
         FROM ${sql.identifier(from)} s JOIN clients c ON c.client_id = s.client_id
        WHERE c.deleted_at IS NULL AND c.backchannel_logout_uri IS NOT NULL
       ON CONFLICT (session_id) DO NOTHING
     )`;

/** A logout's receiver is its client, live while it exists and registers a logout URI. */
const LOGOUTS: SentRows = {
  table: 'backchannel_logouts',
  receiverColumn: 'client_id',
  receivers: 'clients',
  receiverKey: 'client_id',
  receiverKeyType: 'text',
  live: 'r.deleted_at IS NULL AND r.backchannel_logout_uri IS NOT NULL',
};

export const backchannelLogoutsRepo = {
  /**
   * Takes due logouts of clients that still take them, for this worker until `lockedUntil`, within the bounds
   *.
   */
  claimDue: (q: Queryable, now: Date, lockedUntil: Date, bounds: ClaimBounds) =>
    claimDueRows<ClaimedLogout>(q, LOGOUTS, {
      returning: 'id, attempts, locked_until, client_id, session_id, user_id',
      select: `SELECT cl.*, c.backchannel_logout_uri AS url, c.id_token_signed_response_alg
                 FROM claimed cl JOIN clients c ON c.client_id = cl.client_id`,
      now,
      lockedUntil,
      bounds,
    }),

  /** One attempt's result; the claim's `locked_until` fences it, as for webhook deliveries. */
  record: (q: Queryable, claim: Pick<ClaimedLogout, 'id' | 'locked_until'>, r: LogoutResult) =>
    all(
      q,
      sql`UPDATE backchannel_logouts SET status = ${r.status}, attempts = ${r.attempts}, next_attempt_at = ${r.next_attempt_at}, locked_until = NULL,
         last_attempt_at = ${r.started_at}, last_status_code = ${r.status_code}, last_error = ${r.error},
         delivered_at = CASE WHEN ${r.status} = 'delivered' THEN ${r.started_at} ELSE delivered_at END
       WHERE id = ${claim.id} AND locked_until = ${claim.locked_until}`,
    ),

  /** A client's logouts, newest first, a page at a time (as webhook deliveries). */
  listOfClient: (
    q: Queryable,
    clientId: string,
    o: { status?: LogoutStatus; before?: Date; limit: number },
  ) =>
    all<LogoutRow>(
      q,
      sql`SELECT * FROM backchannel_logouts
       WHERE client_id = ${clientId} AND (${o.status ?? null}::text IS NULL OR status = ${o.status ?? null}) AND (${o.before ?? null}::timestamptz IS NULL OR created_at < ${o.before ?? null})
       ORDER BY created_at DESC, id LIMIT ${o.limit}`,
    ),

  /** An operator's "send again": a fresh schedule from now, for a logout of a live client. */
  replay: (q: Queryable, id: string, now: Date) =>
    first<LogoutRow>(
      q,
      sql`UPDATE backchannel_logouts b SET status = 'pending', attempts = 0, next_attempt_at = ${now}, delivered_at = NULL
       FROM clients c
       WHERE b.id = ${id} AND c.client_id = b.client_id AND c.deleted_at IS NULL
       RETURNING b.*`,
    ),
};
