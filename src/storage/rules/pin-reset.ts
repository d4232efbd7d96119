// Writing a new PIN after the phone was verified for a PIN reset (its temp token is consumed first, in the
// same transaction: see temp-tokens.ts).
//
// Rules it enforces:
// - The new PIN goes to the live account that has the number when it is written, found by the phone in the
//   same statement: an account a phone change moves off the number meanwhile is not found (READ COMMITTED
//   re-reads a row another transaction changed), so its PIN stays.
// - A reset unlocks the PIN lock and clears its count of wrong PINs.
// - It makes the PIN a new version, so whatever the old PIN proved (a code issued by a sign-in, a PIN check
//   in progress) no longer holds.
// - It does not lift the operator's lock: for a locked account the caller refuses and rolls the reset back.
// - A recovery code's reset goes to the account the code was made for, by its id: a number that moved on to
//   someone else meanwhile does not take it along.
import type { Queryable } from '../db.ts';
import type { UserRow } from '../repositories/users.ts';
import { first, type Sql, sql } from '../sql.ts';

export type PinReset =
  | { reset: true; account: UserRow }
  | { reset: false; refusal: 'no_account_with_phone' }
  | { reset: false; refusal: 'locked_by_operator'; account: UserRow };

export function resetPinOfPhone(q: Queryable, phone: string, pinHash: string, now: Date): Promise<PinReset> {
  return resetPinWhere(q, sql`phone = ${phone}`, pinHash, now);
}

/** A recovery code's reset: the account the code was made for, whatever number it has now. */
export function resetPinOfAccount(
  q: Queryable,
  userId: string,
  pinHash: string,
  now: Date,
): Promise<PinReset> {
  return resetPinWhere(q, sql`id = ${userId}`, pinHash, now);
}

async function resetPinWhere(q: Queryable, which: Sql, pinHash: string, now: Date): Promise<PinReset> {
  const account = await first<UserRow>(
    q,
    sql`UPDATE users SET pin_hash = ${pinHash}, pin_version = pin_version + 1, failed_pin_attempts = 0,
        locked_until = NULL, updated_at = ${now}
      WHERE ${which} AND deleted_at IS NULL
      RETURNING *`,
  );
  if (!account) return { reset: false, refusal: 'no_account_with_phone' };
  // The row as written: an operator's lock committed while this waited for the row shows here.
  if (account.admin_locked_at) return { reset: false, refusal: 'locked_by_operator', account };
  return { reset: true, account };
}
