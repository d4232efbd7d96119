import { maybeOne, type Queryable } from '../db.ts';

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
    maybeOne<OtpRow>(
      q,
      `SELECT * FROM otps WHERE phone = $1 AND purpose = $2
       ORDER BY consumed_at IS NULL DESC, created_at DESC LIMIT 1`,
      [phone, purpose],
    ),
};
