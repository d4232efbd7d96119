// The account a sign-in opens something for (a session, or the hosted pages' single sign-on), held while it
// opens. Every way of signing in (a PIN, a code to the phone, a passkey, a recovery code) ends here.
//
// Rules it enforces:
// - A sign-in opens only for a live account the operator has not locked: by a code, the account that has the
//   number when the sign-in opens (not one that has just moved off it); otherwise the account the proof names.
// - A sign-in by PIN opens only while the account's PIN is still the one checked: a PIN reset committed during
//   the check (milliseconds of hashing) is seen.
// - The account's row is held (FOR SHARE) until the sign-in's transaction commits, so a deletion, an operator's
//   lock or a PIN reset committing meanwhile waits for it and then ends what it opened with the rest.
// - The lock after wrong PINs neither stops a sign-in without the PIN nor is lifted by this statement: that
//   lock is against guessing the PIN, and a code proves the phone and a passkey is not guessed.
import type { Queryable } from '../db.ts';
import type { UserRow } from '../repositories/users.ts';
import { first, sql } from '../sql.ts';

/** Whose account: the one with this phone number (a code's), or this one; `pinVersion` for a PIN's sign-in. */
export type AccountToHold = ({ phone: string } | { userId: string }) & { pinVersion?: number };

export type HeldAccount =
  | { held: true; account: UserRow }
  | { held: false; refusal: 'no_account' | 'pin_changed' | 'locked_by_operator' };

/** Called in the transaction that opens the sign-in. */
export async function holdAccountForSignIn(q: Queryable, who: AccountToHold): Promise<HeldAccount> {
  const which = 'phone' in who ? sql`phone = ${who.phone}` : sql`id = ${who.userId}`;
  const account = await first<UserRow>(
    q,
    sql`SELECT * FROM users WHERE ${which} AND deleted_at IS NULL FOR SHARE`,
  );
  if (!account) return { held: false, refusal: 'no_account' };
  if (who.pinVersion !== undefined && account.pin_version !== who.pinVersion)
    return { held: false, refusal: 'pin_changed' };
  if (account.admin_locked_at) return { held: false, refusal: 'locked_by_operator' };
  return { held: true, account };
}
