import type { Queryable } from '../db.ts';
import { all, type Sql, sql } from '../sql.ts';
import type { UserRow } from './users.ts';

// The operators' search of live accounts: what a search matches, its filters, newest first, a page at a time
// after a cursor (the last row's creation time and id).

export type UserMatch =
  /** an id: the account's own, or the one an import kept */
  | { by: 'id'; value: string }
  | { by: 'phone'; value: string }
  /** a handle, the id an import kept, or a part of the name */
  | { by: 'text'; handle: string; value: string };

export interface UserSearch {
  match?: UserMatch;
  kycStatus?: string;
  createdFrom?: Date;
  createdBefore?: Date;
  after?: { createdAt: Date; id: string };
  limit: number;
}

/** `%` and `_` in a name searched for are themselves, not patterns. */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function matching(m: UserMatch): Sql {
  switch (m.by) {
    case 'id':
      return sql`(id = ${m.value}::uuid OR external_id = ${m.value})`;
    case 'phone':
      return sql`phone = ${m.value}`;
    case 'text':
      return sql`(handle = ${m.handle} OR external_id = ${m.value} OR name ILIKE ${`%${literal(m.value)}%`})`;
  }
}

export function searchUsers(q: Queryable, s: UserSearch): Promise<UserRow[]> {
  const conditions: Sql[] = [sql`deleted_at IS NULL`];
  if (s.match) conditions.push(matching(s.match));
  if (s.kycStatus) conditions.push(sql`kyc_status = ${s.kycStatus}`);
  if (s.createdFrom) conditions.push(sql`created_at >= ${s.createdFrom}`);
  if (s.createdBefore) conditions.push(sql`created_at < ${s.createdBefore}`);
  if (s.after)
    conditions.push(sql`(created_at, id) < (${s.after.createdAt}::timestamptz, ${s.after.id}::uuid)`);
  return all<UserRow>(
    q,
    sql`SELECT * FROM users WHERE ${sql.join(conditions, ' AND ')} ORDER BY created_at DESC, id DESC LIMIT ${s.limit}`,
  );
}
