// The account a passkey signs in to, held while its session opens.
//
// Rules it enforces:
// - A passkey opens a session only for a live account the operator has not locked; the account's row is held
//   (FOR SHARE) until the session's transaction commits, so a deletion or an operator's lock committing
//   meanwhile waits for it and then ends that session with the others.
// - The lock after wrong PINs does not stop a passkey: it is against guessing the PIN, and a passkey is not
//   guessed.
import type { Queryable } from '../db.ts';
import type { UserRow } from '../repositories/users.ts';
import { first, sql } from '../sql.ts';

export type PasskeyAccount =
  | { held: true; account: UserRow }
  | { held: false; refusal: 'account_gone' | 'locked_by_operator' };

/** Called in the transaction that opens the session. */
export async function holdPasskeyAccount(q: Queryable, userId: string): Promise<PasskeyAccount> {
  const account = await first<UserRow>(
    q,
    sql`SELECT * FROM users WHERE id = ${userId} AND deleted_at IS NULL FOR SHARE`,
  );
  if (!account) return { held: false, refusal: 'account_gone' };
  if (account.admin_locked_at) return { held: false, refusal: 'locked_by_operator' };
  return { held: true, account };
}
