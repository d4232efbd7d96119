// Moving an account to a new phone number, once the code sent to the new number was entered and the PIN
// checked (the code is submitted in the same transaction: see otp-attempts.ts).
//
// Rules it enforces:
// - Only a live account moves, and only while its PIN is still the one the user just entered: a PIN reset
//   committed since the check (after a compromise) stops the move.
// - A number can belong to one live account: a number another account took after the code was sent is a
//   unique violation (`users_phone_live`), which the caller answers as a taken number.
import type { Queryable } from '../db.ts';
import type { UserRow } from '../repositories/users.ts';
import { first, sql } from '../sql.ts';

export type PhoneMove =
  | { moved: true; account: UserRow }
  | { moved: false; refusal: 'account_gone_or_pin_changed' };

export async function movePhone(
  q: Queryable,
  move: { userId: string; phone: string; pinVersion: number; now: Date },
): Promise<PhoneMove> {
  const account = await first<UserRow>(
    q,
    sql`UPDATE users SET phone = ${move.phone}, updated_at = ${move.now}
      WHERE id = ${move.userId} AND deleted_at IS NULL AND pin_version = ${move.pinVersion}
      RETURNING *`,
  );
  return account ? { moved: true, account } : { moved: false, refusal: 'account_gone_or_pin_changed' };
}
