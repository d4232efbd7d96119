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
  /** null until an imported account's person sets a PIN */
  pin_hash: string | null;
  /** How many times the PIN was set again; what a PIN check proved holds only at this version */
  pin_version: number;
  /** when a reset last set the PIN (null: it is the one set when the account was made) */
  pin_set_at: Date | null;
  failed_pin_attempts: number;
  locked_until: Date | null;
  handle_changed_at: Date | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
  /** the operator's lock (console); sign-in and PIN reset are refused until it is lifted */
  admin_locked_at: Date | null;
  /** the id the account had where it was imported from */
  external_id: string | null;
  /** the handle is one an import chose: the person's first own change of it starts no cooldown */
  handle_from_import: boolean;
}

/**
 * The live accounts whose ids the column `userId` of the CTE `input` holds, as a CTE named `account`,
 * their rows held FOR SHARE: an operator's lock, a deletion or a PIN reset (all update the row) committing
 * meanwhile is either seen or waits, and then also ends what the statement opens. Each account once, each
 * reached by its key whatever plan the server caches (a subquery per account).
 */
export const heldLiveAccountsCte = (userId: string) =>
  `account AS (SELECT a.* FROM (SELECT DISTINCT ${userId} AS id FROM input) i,
     LATERAL (SELECT * FROM users WHERE id = i.id AND deleted_at IS NULL OFFSET 0 FOR SHARE) a)`;

/** What a server-to-server search of accounts goes by. */
export type UserSearchKey = { column: 'phone'; value: string } | { column: 'external_id'; value: string };

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

  /** The newest live accounts, newest first (the console's Users page). */
  newestLive: (q: Queryable, limit: number) =>
    q.query<UserRow>(
      'SELECT * FROM users WHERE deleted_at IS NULL ORDER BY created_at DESC, id DESC LIMIT $1',
      [limit],
    ),

  findLiveById: (q: Queryable, id: string) =>
    maybeOne<UserRow>(q, 'SELECT * FROM users WHERE id = $1 AND deleted_at IS NULL', [id]),

  findLiveByHandle: (q: Queryable, handle: string) =>
    maybeOne<UserRow>(q, 'SELECT * FROM users WHERE handle = $1 AND deleted_at IS NULL', [handle]),

  /** Live accounts by phone or external id, a page at a time in id order; the column is named by the code. */
  liveSearchPage: (q: Queryable, key: UserSearchKey, limit: number, after?: string) =>
    q.query<UserRow>(
      `SELECT * FROM users WHERE ${key.column} = $1 AND deleted_at IS NULL ${after ? 'AND id > $3' : ''} ORDER BY id LIMIT $2`,
      after ? [key.value, limit, after] : [key.value, limit],
    ),

  handleInUse: async (q: Queryable, handle: string) =>
    (await q.query('SELECT 1 FROM users WHERE handle = $1 AND deleted_at IS NULL', [handle])).length > 0,

  /**
   * The same PIN's hash made again with today's parameters (and pepper). Only over the hash that
   * was checked: a PIN set meanwhile (a reset) stays. Not a change of the account, so `updated_at` stays too.
   */
  replacePinHash: (q: Queryable, id: string, checked: string, fresh: string) =>
    q.query('UPDATE users SET pin_hash = $3 WHERE id = $1 AND pin_hash = $2', [id, checked, fresh]),

  /** Live accounts by the key id their PIN hash names (PHC `keyid`; null where it names none). */
  countByPinKeyId: (q: Queryable) =>
    q.query<{ key_id: string | null; n: number }>(
      `SELECT substring(split_part(pin_hash, '$', 4) from '(?:^|,)keyid=([^,]*)') AS key_id, count(*)::int AS n
       FROM users WHERE deleted_at IS NULL GROUP BY 1`,
    ),

  /**
   * The KYC fields of both surfaces; country, birthday and verified_at change only when given. No row
   * back: the account was deleted, also by a deletion that committed while this waited for the row.
   */
  setKyc: (
    q: Queryable,
    id: string,
    k: { status: string; country?: string; birthday?: string; verifiedAt?: Date },
    now: Date,
  ) =>
    maybeOne<UserRow>(
      q,
      `UPDATE users SET kyc_status = $2, kyc_country = COALESCE($3, kyc_country),
         kyc_birthday = COALESCE($4::date, kyc_birthday), kyc_verified_at = COALESCE($5, kyc_verified_at), updated_at = $6
       WHERE id = $1 AND deleted_at IS NULL RETURNING *`,
      [id, k.status, k.country ?? null, k.birthday ?? null, k.verifiedAt ?? null, now],
    ),

  /** The operator's lock; unlocking also clears the PIN lock and its count. */
  setAdminLock: (q: Queryable, id: string, lockedAt: Date | null) =>
    maybeOne<UserRow>(
      q,
      `UPDATE users SET admin_locked_at = $2,
         failed_pin_attempts = CASE WHEN $2::timestamptz IS NULL THEN 0 ELSE failed_pin_attempts END,
         locked_until = CASE WHEN $2::timestamptz IS NULL THEN NULL ELSE locked_until END
       WHERE id = $1 AND deleted_at IS NULL RETURNING *`,
      [id, lockedAt],
    ),

  /**
   * Unusable at once; phone and handle free at once (uniqueness is among live rows). With
   * `pinVersion` (a deletion the user confirmed with their PIN), only while that PIN is still the account's.
   */
  markDeleted: (q: Queryable, id: string, now: Date, pinVersion?: number) =>
    maybeOne<UserRow>(
      q,
      `UPDATE users SET deleted_at = $2 WHERE id = $1 AND deleted_at IS NULL
         ${pinVersion === undefined ? '' : 'AND pin_version = $3'} RETURNING *`,
      pinVersion === undefined ? [id, now] : [id, now, pinVersion],
    ),

  /**
   * The hard delete, 30 days on: at most `limit` accounts deleted by `cutoff`, removed with what cascades
   * (sessions, refresh tokens); rows another instance holds are skipped.
   */
  purgeDeletedBefore: (q: Queryable, cutoff: Date, limit: number) =>
    q.query<{ id: string; phone: string; deleted_at: Date }>(
      `DELETE FROM users WHERE id IN (
         SELECT id FROM users WHERE deleted_at IS NOT NULL AND deleted_at <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING id, phone, deleted_at`,
      [cutoff, limit],
    ),
};

/** The columns PATCH /users/me may write; names are fixed here, never taken from a request. */
export interface ProfileFields {
  name?: string | null;
  bio?: string | null;
  avatar_url?: string | null;
  language?: string | null;
  handle?: string;
  email?: string | null;
  metadata?: Record<string, unknown>;
}
