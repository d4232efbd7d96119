import { maybeOne, type Queryable } from '../db.ts';

export interface TempTokenRow {
  token_hash: string;
  phone: string;
  purpose: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
  /** the channel that carried the code it proves */
  channel: string | null;
}

export const tempTokensRepo = {
  /**
   * A verification's temp token, with the channel that carried the code just verified (the last message of
   * the phone's latest code for the purpose; none for a configured test number's).
   */
  insert: (q: Queryable, t: Omit<TempTokenRow, 'used_at' | 'channel'>) =>
    q.query(
      `INSERT INTO temp_tokens (token_hash, phone, purpose, created_at, expires_at, channel)
       VALUES ($1, $2, $3, $4, $5, (
         SELECT m.channel FROM messages m
         WHERE m.phone = $2 AND m.otp_id = (
           SELECT o.id FROM otps o WHERE o.phone = $2 AND o.purpose = $3 ORDER BY o.created_at DESC LIMIT 1)
         ORDER BY m.created_at DESC LIMIT 1))`,
      [t.token_hash, t.phone, t.purpose, t.created_at, t.expires_at],
    ),

  findUsable: (q: Queryable, hash: string, purpose: string, now: Date) =>
    maybeOne<TempTokenRow>(
      q,
      'SELECT * FROM temp_tokens WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3',
      [hash, purpose, now],
    ),
};
