import type { Queryable } from '../db.ts';
import { all, first, one, sql } from '../sql.ts';

export interface WebhookEndpointRow {
  id: string;
  url: string;
  description: string | null;
  event_types: string[];
  enabled: boolean;
  secret_enc: string;
  previous_secret_enc: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

type Settable = Partial<Pick<WebhookEndpointRow, 'url' | 'description' | 'event_types' | 'enabled'>>;

export const webhookEndpointsRepo = {
  insert: (q: Queryable, e: Omit<WebhookEndpointRow, 'previous_secret_enc' | 'previous_secret_expires_at'>) =>
    one<WebhookEndpointRow>(
      q,
      sql`INSERT INTO webhook_endpoints (id, url, description, event_types, enabled, secret_enc, created_at, updated_at)
       VALUES (${e.id}, ${e.url}, ${e.description}, ${e.event_types}, ${e.enabled}, ${e.secret_enc}, ${e.created_at}, ${e.created_at}) RETURNING *`,
    ),

  list: (q: Queryable) =>
    all<WebhookEndpointRow>(q, sql`SELECT * FROM webhook_endpoints ORDER BY created_at, id`),

  find: (q: Queryable, id: string) =>
    first<WebhookEndpointRow>(q, sql`SELECT * FROM webhook_endpoints WHERE id = ${id}`),

  /** Only the given fields change; absent ones keep their value. */
  update: (q: Queryable, id: string, set: Settable, now: Date) =>
    first<WebhookEndpointRow>(
      q,
      sql`UPDATE webhook_endpoints SET
         url = CASE WHEN ${set.url !== undefined} THEN ${set.url ?? null} ELSE url END,
         description = CASE WHEN ${set.description !== undefined} THEN ${set.description ?? null} ELSE description END,
         event_types = CASE WHEN ${set.event_types !== undefined} THEN ${set.event_types ?? null}::text[] ELSE event_types END,
         enabled = CASE WHEN ${set.enabled !== undefined} THEN ${set.enabled ?? null} ELSE enabled END,
         updated_at = ${now}
       WHERE id = ${id} RETURNING *`,
    ),

  /** The current secret becomes the previous one (signing until `previousUntil`); a new one takes its place. */
  rollSecret: (q: Queryable, id: string, secretEnc: string, previousUntil: Date, now: Date) =>
    first<WebhookEndpointRow>(
      q,
      sql`UPDATE webhook_endpoints SET previous_secret_enc = secret_enc, previous_secret_expires_at = ${previousUntil},
         secret_enc = ${secretEnc}, updated_at = ${now}
       WHERE id = ${id} RETURNING *`,
    ),

  delete: async (q: Queryable, id: string) =>
    (await all(q, sql`DELETE FROM webhook_endpoints WHERE id = ${id} RETURNING 1`)).length === 1,
};
