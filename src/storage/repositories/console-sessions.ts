import type { Queryable } from '../db.ts';
import { all, first, sql } from '../sql.ts';

export const consoleSessionsRepo = {
  insert: (q: Queryable, s: { idHash: string; csrf: string; now: Date; expiresAt: Date }) =>
    all(
      q,
      sql`INSERT INTO console_sessions (id_hash, csrf, created_at, expires_at) VALUES (${s.idHash}, ${s.csrf}, ${s.now}, ${s.expiresAt})`,
    ),

  findLive: (q: Queryable, idHash: string, now: Date) =>
    first<{ csrf: string; expires_at: Date }>(
      q,
      sql`SELECT csrf, expires_at FROM console_sessions WHERE id_hash = ${idHash} AND expires_at > ${now}`,
    ),

  delete: (q: Queryable, idHash: string) =>
    all(q, sql`DELETE FROM console_sessions WHERE id_hash = ${idHash}`),
};
