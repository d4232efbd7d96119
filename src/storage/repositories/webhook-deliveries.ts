import type { Queryable } from '../db.ts';
import { type ClaimBounds, claimDueRows, type SentRows } from '../send-claims.ts';
import { all, first, one, sql } from '../sql.ts';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
  locked_until: Date | null;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  last_latency_ms: number | null;
  delivered_at: Date | null;
  created_at: Date;
}

/** A claimed delivery with what sending it needs: the event and the endpoint's URL and secrets. */
export interface ClaimedDelivery {
  id: string;
  attempts: number;
  locked_until: Date;
  event_id: string;
  event_type: string;
  event_data: string;
  event_created_at: Date;
  endpoint_id: string;
  url: string;
  secret_enc: string;
  previous_secret_enc: string | null;
  previous_secret_expires_at: Date | null;
}

export interface AttemptRow {
  started_at: Date;
  latency_ms: number;
  status_code: number | null;
  error: string | null;
}

export interface AttemptResult extends AttemptRow {
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
}

/** A delivery's receiver is its endpoint, live while enabled. */
const DELIVERIES: SentRows = {
  table: 'webhook_deliveries',
  receiverColumn: 'endpoint_id',
  receivers: 'webhook_endpoints',
  receiverKey: 'id',
  receiverKeyType: 'uuid',
  live: 'r.enabled',
};

const WITH_EVENT = sql`SELECT d.*, o.type AS event_type FROM webhook_deliveries d JOIN outbox_events o ON o.id = d.event_id`;

export const webhookDeliveriesRepo = {
  /** Deliveries waiting for an attempt, due or not (the partial index of migration 006 covers them). */
  countPending: async (q: Queryable) =>
    (
      await one<{ n: number }>(
        q,
        sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'`,
      )
    ).n,

  /** Takes due deliveries of enabled endpoints for this worker until `lockedUntil`, within the bounds. */
  claimDue: (q: Queryable, now: Date, lockedUntil: Date, bounds: ClaimBounds) =>
    claimDueRows<ClaimedDelivery>(q, DELIVERIES, {
      returning: 'id, attempts, locked_until, event_id, endpoint_id',
      select: `SELECT c.id, c.attempts, c.locked_until, c.event_id, c.endpoint_id,
                      o.type AS event_type, o.data::text AS event_data, o.created_at AS event_created_at,
                      e.url, e.secret_enc, e.previous_secret_enc, e.previous_secret_expires_at
                 FROM claimed c JOIN webhook_endpoints e ON e.id = c.endpoint_id
                 -- a lookup per claimed row (P57): LIMIT 1 keeps the planner from joining the outbox by hash
                 CROSS JOIN LATERAL (SELECT * FROM outbox_events o WHERE o.id = c.event_id LIMIT 1) o`,
      now,
      lockedUntil,
      bounds,
    }),

  /**
   * Logs attempts and moves their deliveries on, many in one statement. Each claim's `locked_until` fences
   * its write: a worker whose lease ran out (and whose delivery another worker took) changes nothing but
   * the log.
   */
  recordAttempts: (
    q: Queryable,
    done: { claim: Pick<ClaimedDelivery, 'id' | 'locked_until'>; result: AttemptResult }[],
  ) =>
    all(
      q,
      sql`WITH r AS (
         SELECT * FROM unnest(${done.map((d) => d.claim.id)}::uuid[], ${done.map((d) => d.claim.locked_until)}::timestamptz[], ${done.map((d) => d.result.started_at)}::timestamptz[], ${done.map((d) => d.result.latency_ms)}::int[], ${done.map((d) => d.result.status_code)}::int[], ${done.map((d) => d.result.error)}::text[],
                              ${done.map((d) => d.result.status)}::text[], ${done.map((d) => d.result.attempts)}::int[], ${done.map((d) => d.result.next_attempt_at)}::timestamptz[])
           AS r(id, locked_until, started_at, latency_ms, status_code, error, status, attempts, next_attempt_at)),
       -- The deliveries still there, held until this statement ends: an endpoint deleted meanwhile takes its
       -- own with it (and its attempts are dropped), never the batch.
       live AS (SELECT id FROM webhook_deliveries WHERE id = ANY(${done.map((d) => d.claim.id)}::uuid[]) FOR NO KEY UPDATE),
       logged AS (
         INSERT INTO webhook_attempts (delivery_id, started_at, latency_ms, status_code, error)
         SELECT r.id, started_at, latency_ms, status_code, error FROM r JOIN live ON live.id = r.id)
       UPDATE webhook_deliveries d SET status = r.status, attempts = r.attempts, next_attempt_at = r.next_attempt_at,
         locked_until = NULL, last_attempt_at = r.started_at, last_status_code = r.status_code, last_error = r.error,
         last_latency_ms = r.latency_ms,
         delivered_at = CASE WHEN r.status = 'delivered' THEN r.started_at ELSE d.delivered_at END
       FROM r JOIN live ON live.id = r.id WHERE d.id = r.id AND d.locked_until = r.locked_until`,
    ),

  listOfEndpoint: (
    q: Queryable,
    endpointId: string,
    o: { status?: DeliveryStatus; before?: Date; limit: number },
  ) =>
    all<DeliveryRow>(
      q,
      sql`${WITH_EVENT}
       WHERE d.endpoint_id = ${endpointId} AND (${o.status ?? null}::text IS NULL OR d.status = ${o.status ?? null}) AND (${o.before ?? null}::timestamptz IS NULL OR d.created_at < ${o.before ?? null})
       ORDER BY d.created_at DESC, d.id LIMIT ${o.limit}`,
    ),

  find: (q: Queryable, id: string) => first<DeliveryRow>(q, sql`${WITH_EVENT} WHERE d.id = ${id}`),

  attemptsOf: (q: Queryable, id: string) =>
    all<AttemptRow>(
      q,
      sql`SELECT started_at, latency_ms, status_code, error FROM webhook_attempts WHERE delivery_id = ${id} ORDER BY id`,
    ),

  /** An operator's replay: a fresh schedule from now, same envelope id. */
  replay: (q: Queryable, id: string, now: Date) =>
    first<{ id: string }>(
      q,
      sql`UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = ${now}, delivered_at = NULL
       WHERE id = ${id} RETURNING id`,
    ),
};
