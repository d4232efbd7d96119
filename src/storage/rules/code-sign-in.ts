// The account a code to its phone signs in to, held while its session opens.
//
// Rules it enforces:
// - A code signs in to the live account that has the number when the session opens (not one that has just
//   moved off it), if the operator has not locked it. The account's row is held (FOR SHARE) until the
//   session's transaction commits, so a deletion or an operator's lock committing meanwhile waits for it and
//   then ends that session with the others.
// - The lock after wrong PINs does not stop a code's sign-in, and stays as it is: the code proves the phone,
//   not the PIN.
import type { Queryable } from '../db.ts';
import type { UserRow } from '../repositories/users.ts';
import { first, sql } from '../sql.ts';

export type CodeAccount =
  | { held: true; account: UserRow }
  | { held: false; refusal: 'no_account' | 'locked_by_operator' };

/** Called in the transaction that uses the code's temp token and opens the session. */
export async function holdAccountOfPhone(q: Queryable, phone: string): Promise<CodeAccount> {
  const account = await first<UserRow>(
    q,
    sql`SELECT * FROM users WHERE phone = ${phone} AND deleted_at IS NULL FOR SHARE`,
  );
  if (!account) return { held: false, refusal: 'no_account' };
  if (account.admin_locked_at) return { held: false, refusal: 'locked_by_operator' };
  return { held: true, account };
}
