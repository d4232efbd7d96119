// What a way of signing in hands to the one sign-in (sign-in.ts): a proof that says which method it is and how
// it checks, spends and tells. A new way in is a new proof; the sign-in itself does not change.
import type { Queryable } from '../../storage/db.ts';
import type { UserRow } from '../../storage/repositories/users.ts';
import type { AccountToHold, PinChecked } from '../../storage/rules/sign-in-hold.ts';
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

/** A proof checked: one that spends something in the sign-in's transaction, or a PIN, which spends nothing. */
export type CheckedProof = SpendingProof | CheckedPin;

interface ProofAnswers {
  /** The answer when that account is not there (gone, moved off the number, its PIN set again). */
  notThere(): DomainError;
  /** After the commit: what the account's phone is told. */
  told?(account: UserRow): Promise<void>;
}

export interface SpendingProof extends ProofAnswers {
  /** In the transaction, first: spends what proves only once (a temp token) and says whose account, and how. */
  spend(tx: Queryable): Promise<{ account: AccountToHold; amr: string[] }>;
  /** In the transaction, with the account held: what the proof writes (a passkey's counter, a used code). */
  held?(tx: Queryable, account: UserRow): Promise<void>;
}

/** A correct PIN: whose account, at which PIN, and how it proved (its wrong PINs are cleared as it is held). */
export interface CheckedPin extends ProofAnswers {
  pin: PinChecked;
  amr: string[];
}
