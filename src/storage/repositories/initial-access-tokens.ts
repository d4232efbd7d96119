import type { Queryable } from '../db.ts';
import { all, sql } from '../sql.ts';

export const initialAccessTokensRepo = {
  insert: (q: Queryable, t: { token_hash: string; created_at: Date; expires_at: Date; uses_left: number }) =>
    all(
      q,
      sql`INSERT INTO initial_access_tokens (token_hash, created_at, expires_at, uses_left)
        VALUES (${t.token_hash}, ${t.created_at}, ${t.expires_at}, ${t.uses_left})`,
    ),
};
