import type { Queryable } from '../db.ts';

export interface AdminActionRow {
  id: number;
  at: Date;
  source: 'api' | 'console';
  address: string;
  request_id: string;
  method: string;
  route: string;
  params: Record<string, string>;
  status: number;
}

export const adminActionsRepo = {
  insert: (q: Queryable, a: Omit<AdminActionRow, 'id'>) =>
    q.query(
      `INSERT INTO admin_actions (at, source, address, request_id, method, route, params, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8)`,
      [a.at, a.source, a.address, a.request_id, a.method, a.route, JSON.stringify(a.params), a.status],
    ),

  /** Newest first; `before`: the id of the last row of the previous page. */
  list: (q: Queryable, o: { before?: number; limit: number }) =>
    o.before === undefined
      ? q.query<AdminActionRow>('SELECT * FROM admin_actions ORDER BY id DESC LIMIT $1', [o.limit])
      : q.query<AdminActionRow>('SELECT * FROM admin_actions WHERE id < $1 ORDER BY id DESC LIMIT $2', [
          o.before,
          o.limit,
        ]),

  /** The next `limit` rows after the id `after`, oldest first: the trail's export, a batch at a time. */
  after: (q: Queryable, after: number, limit: number) =>
    q.query<AdminActionRow>('SELECT * FROM admin_actions WHERE id > $1 ORDER BY id LIMIT $2', [after, limit]),

  /** The rows older than `cutoff`, for the trail's retention. */
};
