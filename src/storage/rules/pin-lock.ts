// The PIN lock: how many wrong PINs an account takes. Every statement that counts or clears a PIN check is here;
// what a correct PIN opens is held by sign-in-hold.ts.
//
// Rules it enforces:
// - Every PIN check (sign-in by phone, and the PIN asked again to delete the account or change its phone)
//   takes an attempt before the PIN is compared, in one conditional statement: parallel guesses cannot get
//   past the lock, and the attempt that reaches the threshold sets the lock itself.
// - After PIN_LOCK_THRESHOLD wrong PINs in a row the account is locked for PIN_LOCK_SECONDS; a lock that has
//   run out starts a fresh count. An account the operator locked takes no attempts at all.
// - A correct PIN resets the count (and lifts a lock its own attempt may have set).
import type { Queryable } from '../db.ts';
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
