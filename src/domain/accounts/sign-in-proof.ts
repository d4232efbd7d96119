// What a way of signing in hands to the one sign-in (sign-in.ts): a proof that says which method it is and how
// it checks, spends and tells. A new way in is a new proof; the sign-in itself does not change.
import type { Queryable } from '../../storage/db.ts';
import type { UserRow } from '../../storage/repositories/users.ts';
import type { AccountToHold } from '../../storage/rules/sign-in-hold.ts';
import type { DomainError } from '../errors.ts';

/** The method's name: what SIGNIN_METHODS lists, or a recovery code (on only where PINs are off). */
export type ProofMethod = 'pin' | 'code' | 'passkey' | 'recovery_code';

export interface SignInProof {
  readonly method: ProofMethod;
  /**
   * Checks what can be checked before the sign-in's transaction (a PIN's hash, a passkey's signature, a
   * recovery code's hash); a wrong proof throws here.
   */
  check(): Promise<CheckedProof>;
}

export interface CheckedProof {
  /** In the transaction, first: spends what proves only once (a temp token) and says whose account, and how. */
  spend(tx: Queryable): Promise<{ account: AccountToHold; amr: string[] }>;
  /** The answer when that account is not there (gone, moved off the number, its PIN set again). */
  notThere(): DomainError;
  /** In the transaction, with the account held: what the proof writes (a passkey's counter, a used code). */
  held?(tx: Queryable, account: UserRow): Promise<void>;
  /** After the commit: what the account's phone is told. */
  told?(account: UserRow): Promise<void>;
}
