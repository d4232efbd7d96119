// The PIN lock and the sign-in session: how many wrong PINs an account takes, and the session a correct one
// opens. Every statement that counts, clears or acts on a PIN check is here.
//
// Rules it enforces:
// - Every PIN check (sign-in by phone, and the PIN asked again to delete the account or change its phone)
//   takes an attempt before the PIN is compared, in one conditional statement: parallel guesses cannot get
//   past the lock, and the attempt that reaches the threshold sets the lock itself.
// - After PIN_LOCK_THRESHOLD wrong PINs in a row the account is locked for PIN_LOCK_SECONDS; a lock that has
//   run out starts a fresh count. An account the operator locked takes no attempts at all.
// - A correct PIN resets the count (and lifts a lock its own attempt may have set).
// - A sign-in's session opens only for a live account the operator has not locked and whose PIN is still the
//   one checked: a lock, deletion or PIN reset committed during the check (milliseconds of hashing) is seen,
//   or waits for this statement and then ends its session too. The same statement resets the count.
import type { Queryable } from '../db.ts';
import { outboxEventCtes } from '../repositories/outbox.ts';
import type { NewSessionWrite } from '../repositories/sessions.ts';
import type { UserRow } from '../repositories/users.ts';
import { all, first, sql } from '../sql.ts';

/** Wrong PINs in a row that lock the account. */
export const PIN_LOCK_THRESHOLD = 10;
/** How long that lock lasts. */
export const PIN_LOCK_SECONDS = 3600;

/** The account whose PIN is checked: by its phone (sign-in) or its id (a PIN asked again). */
export type PinHolder = { phone: string } | { id: string };

/** Whether an attempt was taken, and why not. */
export type PinAttempt =
  | { taken: true; account: UserRow }
  | { taken: false; refusal: 'no_account' }
  | { taken: false; refusal: 'locked_by_operator'; account: UserRow }
  | { taken: false; refusal: 'locked_by_failures'; account: UserRow; lockedUntil: Date | null };

/** Takes one attempt for the live account, before its PIN is compared; a wrong one counts as taken. */
export async function takePinAttempt(q: Queryable, holder: PinHolder, now: Date): Promise<PinAttempt> {
  const which = 'phone' in holder ? sql`phone = ${holder.phone}` : sql`id = ${holder.id}`;
  const lockUntil = new Date(now.getTime() + PIN_LOCK_SECONDS * 1000);
  const row = await first<UserRow & { taken: boolean }>(
    q,
    sql`WITH taken AS (
      UPDATE users SET
        failed_pin_attempts = CASE WHEN locked_until <= ${now} THEN 1 ELSE failed_pin_attempts + 1 END,
        locked_until = CASE
          WHEN locked_until <= ${now} THEN NULL
          WHEN failed_pin_attempts + 1 >= ${PIN_LOCK_THRESHOLD} THEN ${lockUntil}::timestamptz
          ELSE locked_until END
      WHERE ${which} AND deleted_at IS NULL AND admin_locked_at IS NULL
        AND (locked_until IS NULL OR locked_until <= ${now})
      RETURNING *)
    SELECT true AS taken, * FROM taken
    UNION ALL
    SELECT false, * FROM users WHERE ${which} AND deleted_at IS NULL AND NOT EXISTS (SELECT FROM taken)`,
  );
  if (!row) return { taken: false, refusal: 'no_account' };
  const { taken, ...account } = row;
  if (taken) return { taken: true, account };
  if (account.admin_locked_at) return { taken: false, refusal: 'locked_by_operator', account };
  // Locked by wrong PINs. If the statement's snapshot shows no lock in force, a parallel attempt set it while
  // this one waited for the row: read it.
  const lockedUntil =
    account.locked_until && account.locked_until > now ? account.locked_until : await lockOf(q, account.id);
  return { taken: false, refusal: 'locked_by_failures', account, lockedUntil };
}

async function lockOf(q: Queryable, id: string): Promise<Date | null> {
  const row = await first<{ locked_until: Date | null }>(
    q,
    sql`SELECT locked_until FROM users WHERE id = ${id}`,
  );
  return row?.locked_until ?? null;
}

/** A correct PIN resets the count of wrong ones and lifts the lock its own attempt may have set. */
export async function clearPinFailures(q: Queryable, id: string): Promise<void> {
  await all(q, sql`UPDATE users SET failed_pin_attempts = 0, locked_until = NULL WHERE id = ${id}`);
}

/** Why a correct PIN opened no session. */
export type SignInRefusal = 'account_gone_or_pin_changed' | 'locked_by_operator';

export type SignInSession = { opened: true; account: UserRow } | { opened: false; refusal: SignInRefusal };

/**
 * The session of a sign-in whose PIN (`pinVersion`) was just found correct, with its session.created event,
 * in one statement: atomic without a transaction. The account's row is held by the update that resets its
 * count, so a change committed meanwhile is re-read (READ COMMITTED): a PIN reset leaves no row.
 */
export async function openSignInSession(
  q: Queryable,
  write: NewSessionWrite,
  pinVersion: number,
): Promise<SignInSession> {
  const { session, firstToken, created } = write;
  const row = await first<UserRow & { opened: boolean }>(
    q,
    sql`WITH account AS (
      UPDATE users SET failed_pin_attempts = 0, locked_until = NULL
      WHERE id = ${session.user_id} AND deleted_at IS NULL AND pin_version = ${pinVersion}
      RETURNING *
    ),
    session AS (
      INSERT INTO sessions (id, user_id, client_id, device_name, platform, ip_address, scope, auth_time, amr,
        created_at, last_used_at, refresh_hash, refresh_issued_at, refresh_expires_at)
      SELECT ${session.id}::uuid, account.id, ${session.client_id}, ${session.device_name}, ${session.platform},
        ${session.ip_address}, ${session.scope}, ${session.authTime ?? session.now}::timestamptz,
        ${session.amr ?? null}::text[],
        ${session.now}::timestamptz, ${session.now}::timestamptz, ${firstToken.hash},
        ${session.now}::timestamptz, ${firstToken.expires_at}::timestamptz
      FROM account WHERE account.admin_locked_at IS NULL
      RETURNING *
    ),
    ${outboxEventCtes(created, sql`session`)}
    SELECT EXISTS (SELECT 1 FROM session) AS opened, account.* FROM account`,
  );
  if (!row) return { opened: false, refusal: 'account_gone_or_pin_changed' };
  const { opened, ...account } = row;
  return opened ? { opened: true, account } : { opened: false, refusal: 'locked_by_operator' };
}
