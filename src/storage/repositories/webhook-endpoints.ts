import { maybeOne, one, type Queryable } from '../db.ts';

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
      `INSERT INTO webhook_endpoints (id, url, description, event_types, enabled, secret_enc, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING *`,
      [e.id, e.url, e.description, e.event_types, e.enabled, e.secret_enc, e.created_at],
    ),

  list: (q: Queryable) =>
    q.query<WebhookEndpointRow>('SELECT * FROM webhook_endpoints ORDER BY created_at, id'),

  find: (q: Queryable, id: string) =>
    maybeOne<WebhookEndpointRow>(q, 'SELECT * FROM webhook_endpoints WHERE id = $1', [id]),

  /** Only the given fields change; absent ones keep their value. */
  update: (q: Queryable, id: string, set: Settable, now: Date) =>
    maybeOne<WebhookEndpointRow>(
      q,
      `UPDATE webhook_endpoints SET
         url = CASE WHEN $2 THEN $3 ELSE url END,
         description = CASE WHEN $4 THEN $5 ELSE description END,
         event_types = CASE WHEN $6 THEN $7::text[] ELSE event_types END,
         enabled = CASE WHEN $8 THEN $9 ELSE enabled END,
         updated_at = $10
       WHERE id = $1 RETURNING *`,
      [
        id,
        set.url !== undefined,
        set.url ?? null,
        set.description !== undefined,
        set.description ?? null,
        set.event_types !== undefined,
        set.event_types ?? null,
        set.enabled !== undefined,
        set.enabled ?? null,
        now,
      ],
    ),

  /** The current secret becomes the previous one (signing until `previousUntil`); a new one takes its place. */
  rollSecret: (q: Queryable, id: string, secretEnc: string, previousUntil: Date, now: Date) =>
    maybeOne<WebhookEndpointRow>(
      q,
      `UPDATE webhook_endpoints SET previous_secret_enc = secret_enc, previous_secret_expires_at = $3,
         secret_enc = $2, updated_at = $4
       WHERE id = $1 RETURNING *`,
      [id, secretEnc, previousUntil, now],
    ),

  delete: async (q: Queryable, id: string) =>
    (await q.query('DELETE FROM webhook_endpoints WHERE id = $1 RETURNING 1', [id])).length === 1,
};
