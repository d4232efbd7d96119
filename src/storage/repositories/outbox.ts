import type { Queryable } from '../db.ts';

export interface OutboxRow {
  seq: number;
  id: string;
  type: string;
  data: Record<string, unknown>;
  created_at: Date;
}

export const outboxRepo = {
  insert: (q: Queryable, e: { id: string; type: string; data: unknown; createdAt: Date }) =>
    q.query('INSERT INTO outbox_events (id, type, data, created_at) VALUES ($1, $2, $3::jsonb, $4)', [
      e.id,
      e.type,
      JSON.stringify(e.data),
      e.createdAt,
    ]),

  list: (q: Queryable, type?: string) =>
    q.query<OutboxRow>(
      `SELECT * FROM outbox_events ${type ? 'WHERE type = $1' : ''} ORDER BY seq`,
      type ? [type] : [],
    ),
};
