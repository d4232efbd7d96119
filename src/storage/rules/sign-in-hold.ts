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
// - The lock after wrong PINs neither stops a sign-in without the PIN nor is lifted by it: that lock is
//   against guessing the PIN, and a code proves the phone and a passkey is not guessed. A sign-in by the PIN
//   itself clears the count of wrong PINs, in the same statement that holds the account.
import type { Queryable } from '../db.ts';
import { type NewSessionWrite, newSessionCtes } from '../repositories/sessions.ts';
import type { UserRow } from '../repositories/users.ts';
import { first, sql } from '../sql.ts';

/** Whose account: the one with this phone number (a code's), or this one; `pinVersion` for a PIN's sign-in. */
export type AccountToHold = ({ phone: string } | { userId: string }) & { pinVersion?: number };

export type HeldAccount =
  | { held: true; account: UserRow }
  | { held: false; refusal: 'no_account' | 'pin_changed' | 'no_account_at_pin' | 'locked_by_operator' };

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

/** The account whose PIN was just found correct, and the PIN's version then. */
export interface PinChecked {
  userId: string;
  pinVersion: number;
}

/**
 * A sign-in by PIN, which has nothing to spend, in one statement (atomic without a transaction): holds the
 * account (FOR UPDATE, as the count's reset writes it), clears its wrong PINs and opens `session` if given.
 */
export async function holdAccountForPinSignIn(
  q: Queryable,
  pin: PinChecked,
  session?: NewSessionWrite,
): Promise<HeldAccount> {
  const openable = sql`FROM account WHERE account.admin_locked_at IS NULL`;
  const row = await first<UserRow>(
    q,
    sql`WITH account AS (
        SELECT * FROM users
        WHERE id = ${pin.userId} AND deleted_at IS NULL AND pin_version = ${pin.pinVersion}
        FOR UPDATE
      ),
      cleared AS (
        UPDATE users SET failed_pin_attempts = 0, locked_until = NULL
        FROM account WHERE users.id = account.id AND account.admin_locked_at IS NULL
      )
      ${session ? sql`, ${newSessionCtes(session, openable)}` : sql``}
      SELECT account.* FROM account`,
  );
  if (!row) return { held: false, refusal: 'no_account_at_pin' };
  if (row.admin_locked_at) return { held: false, refusal: 'locked_by_operator' };
  return { held: true, account: row };
}
