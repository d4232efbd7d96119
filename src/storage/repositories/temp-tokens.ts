import type { Queryable } from '../db.ts';
import { all, first, sql } from '../sql.ts';

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

/** A temp token to write: its hash, what it proves and until when. */
export type NewTempToken = Omit<TempTokenRow, 'used_at' | 'channel'>;

/** The channel that carried the phone's latest code for the purpose: its last message's. */
const channelOfLatestCode = (t: NewTempToken) => sql`(
  SELECT m.channel FROM messages m
  WHERE m.phone = ${t.phone} AND m.otp_id = (
    SELECT o.id FROM otps o WHERE o.phone = ${t.phone} AND o.purpose = ${t.purpose} ORDER BY o.created_at DESC LIMIT 1)
  ORDER BY m.created_at DESC LIMIT 1)`;

export const tempTokensRepo = {
  /**
   * A verification's temp token, with how the phone was proven: `provenBy` where given (its mobile network),
   * else the channel that carried the code just verified (the last message of the phone's latest code for the
   * purpose; none for a configured test number's).
   */
  insert: (q: Queryable, t: NewTempToken, provenBy?: string) =>
    all(
      q,
      sql`INSERT INTO temp_tokens (token_hash, phone, purpose, created_at, expires_at, channel)
       VALUES (${t.token_hash}, ${t.phone}, ${t.purpose}, ${t.created_at}, ${t.expires_at},
         coalesce(${provenBy ?? null}::text, ${channelOfLatestCode(t)}))`,
    ),

  /** The statement that writes a code's temp token, for each row of the CTE `used` (a match: one). */
  insertOnUse: (t: NewTempToken) =>
    sql`INSERT INTO temp_tokens (token_hash, phone, purpose, created_at, expires_at, channel)
      SELECT ${t.token_hash}, ${t.phone}, ${t.purpose}, ${t.created_at}::timestamptz, ${t.expires_at}::timestamptz,
        ${channelOfLatestCode(t)} FROM used`,

  findUsable: (q: Queryable, hash: string, purpose: string, now: Date) =>
    first<TempTokenRow>(
      q,
      sql`SELECT * FROM temp_tokens WHERE token_hash = ${hash} AND purpose = ${purpose} AND used_at IS NULL AND expires_at > ${now}`,
    ),
};
