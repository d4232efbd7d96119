import type { Queryable } from '../db.ts';
import { all, sql } from '../sql.ts';

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
  /** in a list: the handle (`@...`) of the account, or the name of the client, the action was on */
  on_name?: string | null;
}

/**
 * The rows with what each was on, by name where it still exists: the account of a `/users/:id` route, the
 * client of a `/clients/:id` route.
 */
const WITH_NAMES = sql`SELECT a.*, coalesce('@' || u.handle, c.client_name) AS on_name FROM admin_actions a
  LEFT JOIN users u ON a.route LIKE '/admin/v1/users/:id%' AND u.id::text = a.params->>'id'
  LEFT JOIN clients c ON a.route LIKE '/admin/v1/clients/:id%' AND c.client_id = a.params->>'id'`;

export const adminActionsRepo = {
  insert: (q: Queryable, a: Omit<AdminActionRow, 'id'>) =>
    all(
      q,
      sql`INSERT INTO admin_actions (at, source, address, request_id, method, route, params, status)
       VALUES (${a.at}, ${a.source}, ${a.address}, ${a.request_id}, ${a.method}, ${a.route}, ${JSON.stringify(a.params)}::jsonb, ${a.status})`,
    ),

  /** Newest first; `before`: the id of the last row of the previous page. */
  list: (q: Queryable, o: { before?: number; limit: number }) =>
    o.before === undefined
      ? all<AdminActionRow>(q, sql`${WITH_NAMES} ORDER BY a.id DESC LIMIT ${o.limit}`)
      : all<AdminActionRow>(
          q,
          sql`${WITH_NAMES} WHERE a.id < ${o.before} ORDER BY a.id DESC LIMIT ${o.limit}`,
        ),

  /** The next `limit` rows after the id `after`, oldest first: the trail's export, a batch at a time. */
  after: (q: Queryable, after: number, limit: number) =>
    all<AdminActionRow>(q, sql`SELECT * FROM admin_actions WHERE id > ${after} ORDER BY id LIMIT ${limit}`),

  /** The rows older than `cutoff`, for the trail's retention. */
};
