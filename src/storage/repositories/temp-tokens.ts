import { maybeOne, type Queryable } from '../db.ts';

export interface TempTokenRow {
  token_hash: string;
  phone: string;
  purpose: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

export const tempTokensRepo = {
  insert: (q: Queryable, t: Omit<TempTokenRow, 'used_at'>) =>
    q.query(
      'INSERT INTO temp_tokens (token_hash, phone, purpose, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
      [t.token_hash, t.phone, t.purpose, t.created_at, t.expires_at],
    ),

  findUsable: (q: Queryable, hash: string, purpose: string, now: Date) =>
    maybeOne<TempTokenRow>(
      q,
      'SELECT * FROM temp_tokens WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3',
      [hash, purpose, now],
    ),
};
