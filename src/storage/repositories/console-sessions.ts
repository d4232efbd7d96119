import { maybeOne, type Queryable } from '../db.ts';

export const consoleSessionsRepo = {
  insert: (q: Queryable, s: { idHash: string; csrf: string; now: Date; expiresAt: Date }) =>
    q.query('INSERT INTO console_sessions (id_hash, csrf, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
      s.idHash,
      s.csrf,
      s.now,
      s.expiresAt,
    ]),

  findLive: (q: Queryable, idHash: string, now: Date) =>
    maybeOne<{ csrf: string; expires_at: Date }>(
      q,
      'SELECT csrf, expires_at FROM console_sessions WHERE id_hash = $1 AND expires_at > $2',
      [idHash, now],
    ),

  delete: (q: Queryable, idHash: string) =>
    q.query('DELETE FROM console_sessions WHERE id_hash = $1', [idHash]),
};
