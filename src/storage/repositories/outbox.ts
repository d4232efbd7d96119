import type { Queryable } from '../db.ts';
import { all, type Sql, sql } from '../sql.ts';
import { SIGNALS_OF_EVENT_CTE } from './ssf-events.ts';

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
  /** what the event's security signals need beyond its payload; never sent to webhooks */
  facts?: Record<string, unknown>;
}

/**
 * The event as a CTE named `event`, one delivery per subscribed, enabled endpoint as `deliveries`, and the
 * event queued on each Shared Signals stream that asks for it as `signals`,
 * for a statement of its own or one that also writes the change the event reports; with `onlyFor` (an
 * earlier CTE of the statement), the event is written only if that CTE has a row. Each delivery is due at
 * once (the spec's first attempt is immediate).
 */
export function outboxEventCtes(e: OutboxEvent, onlyFor?: Sql): Sql {
  return sql`event AS (
      INSERT INTO outbox_events (id, type, data, created_at, facts)
      SELECT ${e.id}::uuid, ${e.type}::text, ${JSON.stringify(e.data)}::json, ${e.createdAt}::timestamptz,
        ${e.facts ? JSON.stringify(e.facts) : null}::jsonb
      ${onlyFor ? sql`FROM ${onlyFor}` : sql``}
      RETURNING id, type, data, created_at, facts
    ),
    ${sql.constant(DELIVERIES_OF_EVENT_CTE)},
    ${sql.constant(SIGNALS_OF_EVENT_CTE)}`;
}

/**
 * One delivery, due at once, per enabled endpoint subscribed to the event of the CTE `event`, as the CTE
 * `deliveries`.
 */
export const DELIVERIES_OF_EVENT_CTE = `deliveries AS (
       INSERT INTO webhook_deliveries (id, endpoint_id, event_id, next_attempt_at, created_at)
       SELECT time_ordered_uuid(), w.id, event.id, event.created_at, event.created_at
         FROM event JOIN webhook_endpoints w
           ON w.enabled AND (cardinality(w.event_types) = 0 OR event.type = ANY (w.event_types))
     )`;

export const outboxRepo = {
  /** The event and its deliveries in one statement, inside the caller's transaction. */
  insert: (q: Queryable, e: OutboxEvent) => all(q, sql`WITH ${outboxEventCtes(e)} SELECT 1`),

  /** An event for one endpoint only (the operator's test event): no fan-out. Answers the delivery's id. */
  insertFor: async (q: Queryable, e: OutboxEvent, endpointId: string) => {
    const [delivery] = await all<{ id: string }>(
      q,
      sql`WITH event AS (
          INSERT INTO outbox_events (id, type, data, created_at)
          VALUES (${e.id}, ${e.type}, ${JSON.stringify(e.data)}::json, ${e.createdAt})
          RETURNING id, created_at
        )
        INSERT INTO webhook_deliveries (id, endpoint_id, event_id, next_attempt_at, created_at)
        SELECT time_ordered_uuid(), ${endpointId}, event.id, event.created_at, event.created_at FROM event RETURNING id`,
    );
    return delivery.id;
  },

  list: (q: Queryable, type?: string) =>
    all<OutboxRow>(
      q,
      sql`SELECT * FROM outbox_events ${type ? sql`WHERE type = ${type}` : sql``} ORDER BY seq`,
    ),
};
