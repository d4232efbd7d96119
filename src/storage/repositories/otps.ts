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
  /** D6: a new send invalidates the previous code of the same phone and purpose. */
  async replace(q: Queryable, o: Omit<OtpRow, 'attempts' | 'consumed_at'>) {
    await q.query(
      'UPDATE otps SET consumed_at = $3 WHERE phone = $1 AND purpose = $2 AND consumed_at IS NULL',
      [o.phone, o.purpose, o.created_at],
    );
    await q.query(
      `INSERT INTO otps (id, phone, purpose, code_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [o.id, o.phone, o.purpose, o.code_hash, o.created_at, o.expires_at],
    );
  },

  /** The live code if there is one (replace leaves at most one), else the newest spent one. */
  current: (q: Queryable, phone: string, purpose: string) =>
    maybeOne<OtpRow>(
      q,
      `SELECT * FROM otps WHERE phone = $1 AND purpose = $2
       ORDER BY consumed_at IS NULL DESC, created_at DESC LIMIT 1`,
      [phone, purpose],
    ),

  /** Single use: the row that flips consumed_at is the only winner. */
  consume: async (q: Queryable, id: string, now: Date) =>
    (
      await q.query('UPDATE otps SET consumed_at = $2 WHERE id = $1 AND consumed_at IS NULL RETURNING id', [
        id,
        now,
      ])
    ).length === 1,
};
