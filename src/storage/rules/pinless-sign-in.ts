// The account a sign-in without the PIN (a code to its phone, or a passkey) opens a session for, held while
// the session opens.
//
// Rules it enforces:
// - Such a sign-in opens a session only for a live account the operator has not locked: by a code, the
//   account that has the number when the session opens (not one that has just moved off it); by a passkey,
//   the passkey's account. The account's row is held (FOR SHARE) until the session's transaction commits, so a
//   deletion or an operator's lock committing meanwhile waits for it and then ends that session with the others.
// - The lock after wrong PINs does not stop it, and stays as it is: that lock is against guessing the PIN, and
//   a code proves the phone and a passkey is not guessed.
import type { Queryable } from '../db.ts';
import type { UserRow } from '../repositories/users.ts';
import { first, sql } from '../sql.ts';

export type HeldAccount =
  | { held: true; account: UserRow }
  | { held: false; refusal: 'no_account' | 'locked_by_operator' };

/** Which account: the one with this phone number (a code's), or this one (a passkey's). */
export type PinlessSignIn = { phone: string } | { userId: string };

/** Called in the transaction that opens the session. */
export async function holdAccountForSignIn(q: Queryable, by: PinlessSignIn): Promise<HeldAccount> {
  const account = await first<UserRow>(
    q,
    'phone' in by
      ? sql`SELECT * FROM users WHERE phone = ${by.phone} AND deleted_at IS NULL FOR SHARE`
      : sql`SELECT * FROM users WHERE id = ${by.userId} AND deleted_at IS NULL FOR SHARE`,
  );
  if (!account) return { held: false, refusal: 'no_account' };
  if (account.admin_locked_at) return { held: false, refusal: 'locked_by_operator' };
  return { held: true, account };
}
