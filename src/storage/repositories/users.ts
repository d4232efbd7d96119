import type { Queryable } from '../db.ts';
import { all, first, one, sql } from '../sql.ts';

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
      sql`INSERT INTO users (id, phone, handle, name, country, pin_hash, created_at, updated_at)
       VALUES (${u.id}, ${u.phone}, ${u.handle}, ${u.name}, ${u.country}, ${u.pinHash}, ${u.now}, ${u.now}) RETURNING *`,
    ),

  findLiveByPhone: (q: Queryable, phone: string) =>
    first<UserRow>(q, sql`SELECT * FROM users WHERE phone = ${phone} AND deleted_at IS NULL`),

  /** The newest live accounts, newest first (the console's Users page). */
  newestLive: (q: Queryable, limit: number) =>
    all<UserRow>(
      q,
      sql`SELECT * FROM users WHERE deleted_at IS NULL ORDER BY created_at DESC, id DESC LIMIT ${limit}`,
    ),

  findLiveById: (q: Queryable, id: string) =>
    first<UserRow>(q, sql`SELECT * FROM users WHERE id = ${id} AND deleted_at IS NULL`),

  findLiveByHandle: (q: Queryable, handle: string) =>
    first<UserRow>(q, sql`SELECT * FROM users WHERE handle = ${handle} AND deleted_at IS NULL`),

  /** Live accounts by phone or external id, a page at a time in id order; the column is named by the code. */
  liveSearchPage: (q: Queryable, key: UserSearchKey, limit: number, after?: string) =>
    all<UserRow>(
      q,
      sql`SELECT * FROM users WHERE ${sql.identifier(key.column)} = ${key.value} AND deleted_at IS NULL
          ${after ? sql`AND id > ${after}` : sql``} ORDER BY id LIMIT ${limit}`,
    ),

  handleInUse: async (q: Queryable, handle: string) =>
    (await all(q, sql`SELECT 1 FROM users WHERE handle = ${handle} AND deleted_at IS NULL`)).length > 0,

  /**
   * The same PIN's hash made again with today's parameters (and pepper). Only over the hash that
   * was checked: a PIN set meanwhile (a reset) stays. Not a change of the account, so `updated_at` stays too.
   */
  replacePinHash: (q: Queryable, id: string, checked: string, fresh: string) =>
    all(q, sql`UPDATE users SET pin_hash = ${fresh} WHERE id = ${id} AND pin_hash = ${checked}`),

  /** Live accounts by the key id their PIN hash names (PHC `keyid`; null where it names none). */
  countByPinKeyId: (q: Queryable) =>
    all<{ key_id: string | null; n: number }>(
      q,
      sql`SELECT substring(split_part(pin_hash, '$', 4) from '(?:^|,)keyid=([^,]*)') AS key_id, count(*)::int AS n
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
    first<UserRow>(
      q,
      sql`UPDATE users SET kyc_status = ${k.status}, kyc_country = COALESCE(${k.country ?? null}, kyc_country),
         kyc_birthday = COALESCE(${k.birthday ?? null}::date, kyc_birthday), kyc_verified_at = COALESCE(${k.verifiedAt ?? null}, kyc_verified_at), updated_at = ${now}
       WHERE id = ${id} AND deleted_at IS NULL RETURNING *`,
    ),

  /** The operator's lock; unlocking also clears the PIN lock and its count. */
  setAdminLock: (q: Queryable, id: string, lockedAt: Date | null) =>
    first<UserRow>(
      q,
      sql`UPDATE users SET admin_locked_at = ${lockedAt},
         failed_pin_attempts = CASE WHEN ${lockedAt}::timestamptz IS NULL THEN 0 ELSE failed_pin_attempts END,
         locked_until = CASE WHEN ${lockedAt}::timestamptz IS NULL THEN NULL ELSE locked_until END
       WHERE id = ${id} AND deleted_at IS NULL RETURNING *`,
    ),

  /**
   * Unusable at once; phone and handle free at once (uniqueness is among live rows). With
   * `pinVersion` (a deletion the user confirmed with their PIN), only while that PIN is still the account's.
   */
  markDeleted: (q: Queryable, id: string, now: Date, pinVersion?: number) =>
    first<UserRow>(
      q,
      sql`UPDATE users SET deleted_at = ${now} WHERE id = ${id} AND deleted_at IS NULL
         ${pinVersion === undefined ? sql`` : sql`AND pin_version = ${pinVersion}`} RETURNING *`,
    ),

  /**
   * The hard delete, 30 days on: at most `limit` accounts deleted by `cutoff`, removed with what cascades
   * (sessions, refresh tokens); rows another instance holds are skipped.
   */
  purgeDeletedBefore: (q: Queryable, cutoff: Date, limit: number) =>
    all<{ id: string; phone: string; deleted_at: Date }>(
      q,
      sql`DELETE FROM users WHERE id IN (
         SELECT id FROM users WHERE deleted_at IS NOT NULL AND deleted_at <= ${cutoff} LIMIT ${limit} FOR UPDATE SKIP LOCKED)
       RETURNING id, phone, deleted_at`,
    ),

  /** The codes and temp tokens the purged accounts' numbers had by their deletion (later ones are another's). */
  purgeCodesOfDeleted: async (q: Queryable, gone: Array<{ phone: string; deleted_at: Date }>) => {
    const phones = gone.map((u) => u.phone);
    const deletedAt = gone.map((u) => u.deleted_at);
    for (const table of ['otps', 'temp_tokens'])
      await all(
        q,
        sql`DELETE FROM ${sql.identifier(table)} t
            USING unnest(${phones}::text[], ${deletedAt}::timestamptz[]) AS g(phone, deleted_at)
            WHERE t.phone = g.phone AND t.created_at <= g.deleted_at`,
      );
  },
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
