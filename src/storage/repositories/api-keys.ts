import type { Queryable } from '../db.ts';
import { all, first, one, sql } from '../sql.ts';

export interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  key_hash: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export const apiKeysRepo = {
  insert: (q: Queryable, k: Omit<ApiKeyRow, 'last_used_at' | 'revoked_at'>) =>
    one<ApiKeyRow>(
      q,
      sql`INSERT INTO api_keys (id, name, prefix, key_hash, created_at) VALUES (${k.id}, ${k.name}, ${k.prefix}, ${k.key_hash}, ${k.created_at}) RETURNING *`,
    ),

  list: (q: Queryable) => all<ApiKeyRow>(q, sql`SELECT * FROM api_keys ORDER BY created_at`),

  revoke: (q: Queryable, id: string, now: Date) =>
    first<ApiKeyRow>(
      q,
      sql`UPDATE api_keys SET revoked_at = ${now} WHERE id = ${id} AND revoked_at IS NULL RETURNING *`,
    ),

  /** A live key by its hash; marks it used (shown in the console's key list). */
  use: (q: Queryable, keyHash: string, now: Date) =>
    first<ApiKeyRow>(
      q,
      sql`UPDATE api_keys SET last_used_at = ${now} WHERE key_hash = ${keyHash} AND revoked_at IS NULL RETURNING *`,
    ),
};
