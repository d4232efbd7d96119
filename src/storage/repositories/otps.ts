import type { Queryable } from '../db.ts';
import { first, sql } from '../sql.ts';

export interface OtpRow {
  id: string;
  phone: string;
  purpose: string;
  code_hash: string;
  attempts: number;
  created_at: Date;
  expires_at: Date;
  consumed_at: Date | null;
}

export const otpsRepo = {
  /** The live code if there is one (replace leaves at most one), else the newest spent one. */
  current: (q: Queryable, phone: string, purpose: string) =>
    first<OtpRow>(
      q,
      sql`SELECT * FROM otps WHERE phone = ${phone} AND purpose = ${purpose}
       ORDER BY consumed_at IS NULL DESC, created_at DESC LIMIT 1`,
    ),
};
