// Where PINs are off (SIGNIN_METHODS without `pin`), a recovery code is what its name says: a way to recover the
// account's passkeys. It signs in once (sign-in.ts), so that the person can register a new passkey.
//
// Rules it enforces:
// - It works only where PINs are off; elsewhere a recovery code resets the PIN (recovery-codes.ts) and the
//   sign-in answers FORBIDDEN `method_disabled`.
// - The code is used in the transaction that opens the sign-in, so one code signs in once; the account is the
//   live one the code was made for, not locked by the operator (storage/rules/sign-in-hold.ts).
// - Each use is `recovery_code.used`, counted as a sign-in by recovery code, and told to the account's phone.
// - A wrong, used or malformed code answers INVALID_CREDENTIALS, and is counted by the sign-in limits of the
//   number and the address like a PIN (the routes count them).
import type { Clock } from '../../providers/clock.ts';
import type { Queryable } from '../../storage/db.ts';
import type { UserRow } from '../../storage/repositories/users.ts';
import { useRecoveryCode } from '../../storage/rules/recovery-codes.ts';
import { parsePhone } from '../phone.ts';
import { AMR } from '../sessions/authentication.ts';
import type { Events } from '../webhooks/events.ts';
import type { AccountNotices } from './account-notices.ts';
import { invalidCode, type RecoveryCodeService } from './recovery-codes.ts';
import type { CheckedProof, SignInProof } from './sign-in-proof.ts';

export interface RecoverySignInDeps {
  clock: Clock;
  events: Events;
  recoveryCodes: Pick<RecoveryCodeService, 'matching'>;
  notices: AccountNotices;
}

export class RecoverySignIn {
  constructor(private readonly d: RecoverySignInDeps) {}

  /** The proof a recovery code gives: the account it was made for. */
  proof(phoneInput: string, recoveryCode: string): SignInProof {
    return { method: 'recovery_code', check: () => this.checked(phoneInput, recoveryCode) };
  }

  private async checked(phoneInput: string, recoveryCode: string): Promise<CheckedProof> {
    const phone = parsePhone(phoneInput).e164;
    const match = await this.d.recoveryCodes.matching(phone, recoveryCode);
    const spend = async () => ({ account: { userId: match.id }, amr: AMR.recoveryCode });
    const held = async (tx: Queryable) => {
      const now = this.d.clock.now();
      const used = await useRecoveryCode(tx, { userId: match.id, hash: match.hash, now });
      if (!used) throw invalidCode();
      await this.d.events.emit(tx, 'recovery_code.used', {
        user_id: match.id,
        used_at: now.toISOString(),
        remaining: used.remaining,
      });
    };
    const told = (account: UserRow) => this.d.notices.tell(account, 'phone.signed_in_by_recovery_code');
    return { spend, held, told, notThere: invalidCode };
  }
}
