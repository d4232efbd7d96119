import { maybeOne, one, type Queryable } from '../db.ts';

export interface UserRow {
  id: string;
  phone: string;
  phone_verified: boolean;
  handle: string;
  name: string | null;
  bio: string | null;
  avatar_url: string | null;
  country: string | null;
  language: string | null;
  email: string | null;
  metadata: Record<string, unknown>;
  kyc_status: string;
  kyc_country: string | null;
  kyc_birthday: string | null;
  kyc_verified_at: Date | null;
  pin_hash: string;
  failed_pin_attempts: number;
  locked_until: Date | null;
  handle_changed_at: Date | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export interface NewUser {
  id: string;
  phone: string;
  handle: string;
  name: string | null;
  country: string | null;
  pinHash: string;
  now: Date;
}

export const usersRepo = {
  insert: (q: Queryable, u: NewUser) =>
    one<UserRow>(
      q,
      `INSERT INTO users (id, phone, handle, name, country, pin_hash, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING *`,
      [u.id, u.phone, u.handle, u.name, u.country, u.pinHash, u.now],
    ),

  findLiveByPhone: (q: Queryable, phone: string) =>
    maybeOne<UserRow>(q, 'SELECT * FROM users WHERE phone = $1 AND deleted_at IS NULL', [phone]),

  findLiveById: (q: Queryable, id: string) =>
    maybeOne<UserRow>(q, 'SELECT * FROM users WHERE id = $1 AND deleted_at IS NULL', [id]),

  handleInUse: async (q: Queryable, handle: string) =>
    (await q.query('SELECT 1 FROM users WHERE handle = $1 AND deleted_at IS NULL', [handle])).length > 0,

  /**
   * D9: takes one PIN attempt before the PIN is checked, in one conditional statement, so parallel
   * guesses cannot get past the lock: the attempt that reaches `max` sets the lock itself. An expired
   * lock starts a fresh count. No row back means the account is locked.
   */
  takePinAttempt: (q: Queryable, id: string, now: Date, max: number, lockUntil: Date) =>
    maybeOne<{ failed_pin_attempts: number; locked_until: Date | null }>(
      q,
      `UPDATE users SET
         failed_pin_attempts = CASE WHEN locked_until <= $2 THEN 1 ELSE failed_pin_attempts + 1 END,
         locked_until = CASE
           WHEN locked_until <= $2 THEN NULL
           WHEN failed_pin_attempts + 1 >= $3 THEN $4
           ELSE locked_until END
       WHERE id = $1 AND deleted_at IS NULL AND (locked_until IS NULL OR locked_until <= $2)
       RETURNING failed_pin_attempts, locked_until`,
      [id, now, max, lockUntil],
    ),

  lockedUntil: async (q: Queryable, id: string) =>
    (await maybeOne<{ locked_until: Date | null }>(q, 'SELECT locked_until FROM users WHERE id = $1', [id]))
      ?.locked_until ?? null,

  /** D9: a correct PIN resets the count (and lifts a lock its own attempt may have set). */
  clearPinFailures: (q: Queryable, id: string) =>
    q.query('UPDATE users SET failed_pin_attempts = 0, locked_until = NULL WHERE id = $1', [id]),

  /** D10: a new PIN unlocks the account. */
  setPin: (q: Queryable, id: string, pinHash: string, now: Date) =>
    maybeOne<UserRow>(
      q,
      `UPDATE users SET pin_hash = $2, failed_pin_attempts = 0, locked_until = NULL, updated_at = $3
       WHERE id = $1 AND deleted_at IS NULL RETURNING *`,
      [id, pinHash, now],
    ),
};
