import type { Queryable } from '../db.ts';
import { all, sql } from '../sql.ts';

/** A stream's queued event with what its SET is made from: the account event, or the stream's own event. */
export interface QueuedEvent {
  id: string;
  created_at: Date;
  /** the account event's type and data; null for the stream's own events */
  type: string | null;
  data: unknown;
  /** what the account event's signals need beyond its payload */
  facts: Record<string, unknown> | null;
  own_event: { type: string; members: Record<string, unknown> } | null;
}

/**
 * A CTE (`signals`) queueing the event of the CTE `event` on every stream of a live client that is not disabled, that asks for
 * what the event makes, and whose client knows the account: it held a session of it or was given consent. An
 * event about one session goes only to that session's client; a number moved (which names both numbers) only
 * to a client given the phone scope; a sign-in with a passkey (a session whose facts say phishing-resistant) only
 * to the clients that hold a live one-factor session of the account, whose assurance it raises.
 */
export const SIGNALS_OF_EVENT_CTE = `signals AS (
       INSERT INTO ssf_events (id, stream_id, event_id, next_attempt_at, created_at)
       SELECT time_ordered_uuid(), st.id, event.id, event.created_at, event.created_at
         FROM event JOIN ssf_streams st ON st.status <> 'disabled' AND event.type = ANY (st.source_types)
        WHERE (SELECT cl.deleted_at IS NULL FROM clients cl WHERE cl.client_id = st.client_id)
          AND (EXISTS (SELECT 1 FROM sessions s
                       WHERE s.user_id = (event.data->>'user_id')::uuid AND s.client_id = st.client_id)
           OR EXISTS (SELECT 1 FROM consents c
                       WHERE c.user_id = (event.data->>'user_id')::uuid AND c.client_id = st.client_id))
          AND CASE event.type
            WHEN 'session.created' THEN event.facts->>'acr' = 'urn:callsign:acr:phr' AND EXISTS (
              SELECT 1 FROM sessions s WHERE s.user_id = (event.data->>'user_id')::uuid
                AND s.client_id = st.client_id AND s.id::text <> event.data->>'session_id'
                AND s.revoked_at IS NULL AND s.refresh_expires_at > event.created_at
                AND NOT coalesce(s.amr && ARRAY['hwk', 'swk'], false))
            WHEN 'user.phone_changed' THEN EXISTS (
              SELECT 1 FROM sessions s WHERE s.user_id = (event.data->>'user_id')::uuid
                AND s.client_id = st.client_id AND ' ' || s.scope || ' ' LIKE '% phone %')
              OR EXISTS (SELECT 1 FROM consents c WHERE c.user_id = (event.data->>'user_id')::uuid
                AND c.client_id = st.client_id AND ' ' || c.scope || ' ' LIKE '% phone %')
            ELSE event.data->>'session_id' IS NULL OR EXISTS (SELECT 1 FROM sessions s
                WHERE s.id = (event.data->>'session_id')::uuid AND s.client_id = st.client_id)
          END
     )`;

/**
 * Whether the queued row `e` is the stream's own notice that its status changed (SSF §8.1.5), which reaches the
 * receiver whatever the status: it is how the receiver learns of it.
 */
export const STREAM_UPDATED_ROW = (e: string) =>
  `${e}.own_event->>'type' = 'https://schemas.openid.net/secevent/ssf/event-type/stream-updated'`;

export const ssfEventsRepo = {
  /** One of the stream's own events (verification, stream-updated), queued at `now`. */
  queueOwn: (q: Queryable, streamId: string, id: string, own: QueuedEvent['own_event'], now: Date) =>
    all(
      q,
      sql`INSERT INTO ssf_events (id, stream_id, own_event, next_attempt_at, created_at)
        VALUES (${id}, ${streamId}, ${JSON.stringify(own)}::jsonb, ${now}, ${now})`,
    ),

  /**
   * Up to `max` of the stream's events not yet acknowledged, oldest first, and whether more wait: all of them
   * while it is enabled, else only its notices of a status changed.
   */
  pending: async (q: Queryable, streamId: string, max: number) => {
    const rows = await all<QueuedEvent>(
      q,
      sql`SELECT e.id, e.created_at, o.type, o.data, o.facts, e.own_event
        FROM ssf_events e JOIN ssf_streams st ON st.id = e.stream_id
        LEFT JOIN outbox_events o ON o.id = e.event_id
        WHERE e.stream_id = ${streamId} AND e.status = 'pending'
          AND (st.status = 'enabled' OR ${sql.constant(STREAM_UPDATED_ROW('e'))})
        ORDER BY e.created_at, e.id LIMIT ${max + 1}`,
    );
    return { events: rows.slice(0, max), more: rows.length > max };
  },

  /** The stream's events of these ids acknowledged at `now`; answers the ids that were pending. */
  acknowledge: async (q: Queryable, streamId: string, ids: string[], now: Date) =>
    (
      await all<{ id: string }>(
        q,
        sql`UPDATE ssf_events SET status = 'delivered', delivered_at = ${now}
          WHERE stream_id = ${streamId} AND id::text = ANY (${ids}::text[]) AND status = 'pending' RETURNING id`,
      )
    ).map((r) => r.id),
};
