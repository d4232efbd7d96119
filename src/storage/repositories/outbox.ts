import type { Queryable } from '../db.ts';

export interface OutboxRow {
  seq: number;
  id: string;
  type: string;
  data: Record<string, unknown>;
  created_at: Date;
}

/** An event as the outbox stores it. */
export interface OutboxEvent {
  id: string;
  type: string;
  data: unknown;
  createdAt: Date;
}

/** The i-th value of the row a statement writes, as SQL: a parameter, or a column of the statement's input. */
export type SqlValues = (i: number) => string;

/** The parameters from `$first` on. */
export const paramsFrom =
  (first: number): SqlValues =>
  (i) =>
    `$${first + i}`;

/**
 * The event row as a CTE named `event`; `v` gives its values, in the order of `outboxParams`. With `from`, the
 * event is written for each row of that (an earlier CTE of the statement, or a join of them).
 */
function eventCte(v: SqlValues, from?: string): string {
  const [id, type, data, createdAt] = [0, 1, 2, 3].map(v);
  return `event AS (
       INSERT INTO outbox_events (id, type, data, created_at)
       SELECT ${id}, ${type}, ${data}::json, ${createdAt}${from ? ` FROM ${from}` : ''}
       RETURNING id, type, created_at
     )`;
}

/**
 * D32: the event and one delivery per subscribed, enabled endpoint, as two CTEs (`event`, `deliveries`) for
 * a statement of its own or one that also writes the change the event reports (named by `from` when that
 * change may not happen); each delivery is due at once (the spec's first attempt is immediate). `v` gives the
 * event's values, in the order of `outboxParams`.
 */
export function outboxCtes(v: SqlValues, from?: string): string {
  return `${eventCte(v, from)}, ${DELIVERIES_OF_EVENT_CTE}`;
}

/**
 * D32: one delivery, due at once, per enabled endpoint subscribed to the event of the CTE `event`, as the CTE
 * `deliveries`.
 */
export const DELIVERIES_OF_EVENT_CTE = `deliveries AS (
       INSERT INTO webhook_deliveries (id, endpoint_id, event_id, next_attempt_at, created_at)
       SELECT gen_random_uuid(), w.id, event.id, event.created_at, event.created_at
         FROM event JOIN webhook_endpoints w
           ON w.enabled AND (cardinality(w.event_types) = 0 OR event.type = ANY (w.event_types))
     )`;

export const outboxParams = (e: OutboxEvent) => [e.id, e.type, JSON.stringify(e.data), e.createdAt];

export const outboxRepo = {
  /** D32: the event and its deliveries in one statement, inside the caller's transaction. */
  insert: (q: Queryable, e: OutboxEvent) =>
    q.query(`WITH ${outboxCtes(paramsFrom(1))} SELECT 1`, outboxParams(e)),

  /** An event for one endpoint only (the operator's test event): no fan-out. Answers the delivery's id. */
  insertFor: async (q: Queryable, e: OutboxEvent, endpointId: string) =>
    (
      await q.query<{ id: string }>(
        `WITH ${eventCte(paramsFrom(1))}
         INSERT INTO webhook_deliveries (id, endpoint_id, event_id, next_attempt_at, created_at)
         SELECT gen_random_uuid(), $5, event.id, event.created_at, event.created_at FROM event RETURNING id`,
        [...outboxParams(e), endpointId],
      )
    )[0].id,

  list: (q: Queryable, type?: string) =>
    q.query<OutboxRow>(
      `SELECT * FROM outbox_events ${type ? 'WHERE type = $1' : ''} ORDER BY seq`,
      type ? [type] : [],
    ),
};
