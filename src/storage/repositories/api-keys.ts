import { maybeOne, one, type Queryable } from '../db.ts';

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
      'INSERT INTO api_keys (id, name, prefix, key_hash, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING *',
      [k.id, k.name, k.prefix, k.key_hash, k.created_at],
    ),

  list: (q: Queryable) => q.query<ApiKeyRow>('SELECT * FROM api_keys ORDER BY created_at'),

  revoke: (q: Queryable, id: string, now: Date) =>
    maybeOne<ApiKeyRow>(
      q,
      'UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING *',
      [id, now],
    ),

  /** A live key by its hash; marks it used (shown in the console's key list). */
  use: (q: Queryable, keyHash: string, now: Date) =>
    maybeOne<ApiKeyRow>(
      q,
      'UPDATE api_keys SET last_used_at = $2 WHERE key_hash = $1 AND revoked_at IS NULL RETURNING *',
      [keyHash, now],
    ),
};
