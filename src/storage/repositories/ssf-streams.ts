import type { Queryable } from '../db.ts';
import { all, first, sql } from '../sql.ts';

export type StreamStatus = 'enabled' | 'paused' | 'disabled';

/** What a stream's owner may set. */
export interface StreamSettings {
  description: string | null;
  delivery_method: string;
  endpoint_url: string | null;
  authorization_header_enc: string | null;
  events_requested: string[];
  source_types: string[];
}

/** A client's event stream as stored. */
export interface StreamRow extends StreamSettings {
  id: string;
  client_id: string;
  status: StreamStatus;
  status_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

export const ssfStreamsRepo = {
  insert: (q: Queryable, s: StreamSettings & { id: string; client_id: string; now: Date }) =>
    first<StreamRow>(
      q,
      sql`INSERT INTO ssf_streams (id, client_id, description, delivery_method, endpoint_url,
          authorization_header_enc, events_requested, source_types, created_at, updated_at)
        VALUES (${s.id}, ${s.client_id}, ${s.description}, ${s.delivery_method}, ${s.endpoint_url},
          ${s.authorization_header_enc}, ${s.events_requested}::text[], ${s.source_types}::text[], ${s.now}, ${s.now})
        RETURNING *`,
    ),

  /** The client's streams, oldest first. */
  ofClient: (q: Queryable, clientId: string) =>
    all<StreamRow>(q, sql`SELECT * FROM ssf_streams WHERE client_id = ${clientId} ORDER BY created_at, id`),

  /** The client's stream of that id. */
  find: (q: Queryable, clientId: string, id: string) =>
    first<StreamRow>(q, sql`SELECT * FROM ssf_streams WHERE client_id = ${clientId} AND id = ${id}`),

  update: (q: Queryable, clientId: string, id: string, s: StreamSettings, now: Date) =>
    first<StreamRow>(
      q,
      sql`UPDATE ssf_streams SET description = ${s.description}, delivery_method = ${s.delivery_method},
          endpoint_url = ${s.endpoint_url}, authorization_header_enc = ${s.authorization_header_enc},
          events_requested = ${s.events_requested}::text[], source_types = ${s.source_types}::text[],
          updated_at = ${now}
        WHERE client_id = ${clientId} AND id = ${id} RETURNING *`,
    ),

  /** The stream's status; a stream disabled drops what it held. */
  setStatus: async (
    q: Queryable,
    clientId: string,
    id: string,
    status: StreamStatus,
    reason: string | null,
    now: Date,
  ) => {
    const row = await first<StreamRow>(
      q,
      sql`UPDATE ssf_streams SET status = ${status}, status_reason = ${reason}, updated_at = ${now}
        WHERE client_id = ${clientId} AND id = ${id} RETURNING *`,
    );
    if (row && status === 'disabled')
      await all(q, sql`DELETE FROM ssf_events WHERE stream_id = ${id} AND status = 'pending'`);
    return row;
  },

  /** The stream's verification asked for at `now`, unless one was asked less than `interval` s before. */
  requestVerification: async (q: Queryable, id: string, now: Date, interval: number) =>
    (
      await all(
        q,
        sql`UPDATE ssf_streams SET verification_requested_at = ${now}
          WHERE id = ${id} AND (verification_requested_at IS NULL
            OR verification_requested_at <= ${now}::timestamptz - make_interval(secs => ${interval}))
          RETURNING id`,
      )
    ).length > 0,

  remove: async (q: Queryable, clientId: string, id: string) =>
    (await all(q, sql`DELETE FROM ssf_streams WHERE client_id = ${clientId} AND id = ${id} RETURNING id`))
      .length > 0,
};
