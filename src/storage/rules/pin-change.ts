// Writing a new PIN that the account's current PIN proved (not a reset: the person knows the PIN).
//
// Rules it enforces:
// - The new PIN is written only while the account is live and its PIN is still the one checked (its version):
//   a reset or another change committed during the check (milliseconds of hashing) wins, and this one writes
//   nothing.
// - It makes the PIN a new version, so whatever the old PIN proved elsewhere (a code issued by a sign-in, a
//   PIN check in progress) no longer holds; it clears the count of wrong PINs.
// - It does not lift the operator's lock: for a locked account the caller refuses and rolls the change back.
// - It leaves the time the PIN was last reset (`pin_set_at`) as it was: a later reset still ends the passkeys
//   and recovery codes made since that reset, including any made before this change.
import type { Queryable } from '../db.ts';
import type { UserRow } from '../repositories/users.ts';
import { first, sql } from '../sql.ts';

export type PinChanged =
  | { changed: true; account: UserRow }
  | { changed: false; refusal: 'gone_or_pin_changed' | 'locked_by_operator' };

export interface PinToChange {
  userId: string;
  /** the version of the PIN the person gave, as checked */
  pinVersion: number;
  pinHash: string;
  now: Date;
}

export async function changePinAtVersion(q: Queryable, c: PinToChange): Promise<PinChanged> {
  const account = await first<UserRow>(
    q,
    sql`UPDATE users SET pin_hash = ${c.pinHash}, pin_version = pin_version + 1, failed_pin_attempts = 0,
        locked_until = NULL, updated_at = ${c.now}
      WHERE id = ${c.userId} AND deleted_at IS NULL AND pin_version = ${c.pinVersion}
      RETURNING *`,
  );
  if (!account) return { changed: false, refusal: 'gone_or_pin_changed' };
  // The row as written: an operator's lock committed while this waited for the row shows here.
  if (account.admin_locked_at) return { changed: false, refusal: 'locked_by_operator' };
  return { changed: true, account };
}
