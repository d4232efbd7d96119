// Signing in with a code to the phone, where SIGNIN_METHODS has `code`: the code is asked for with purpose
// `signin` on /auth/otp/send (every rule of a send applies), verified for a temp token, and the temp token
// signs in like a PIN (sign-in.ts): the same answer and event, its `amr` the code's channel's.
//
// Rules it enforces:
// - The temp token is of purpose `signin`, unused and unexpired, and is used by the transaction that opens
//   the sign-in (storage/rules/temp-tokens.ts), so one code signs in once.
// - The account is the live one that has the number then (storage/rules/sign-in-hold.ts); the PIN's lock
//   neither stops it nor is lifted.
import type { Queryable } from '../../storage/db.ts';
import type { OtpService } from '../codes/otp.ts';
import { fieldError } from '../errors.ts';
import type { SignInProof } from './sign-in-proof.ts';

const phoneNotFound = () => fieldError('PHONE_NOT_FOUND', 'phone', 'no account uses this phone number');

export class CodeSignIn {
  constructor(private readonly d: { otp: OtpService }) {}

  /** The proof a code's temp token gives: the number it was sent to, by the channel that carried it. */
  proof(tempToken: string): SignInProof {
    const spend = async (tx: Queryable) => {
      const proved = await this.d.otp.consumeTempToken(tx, tempToken, 'signin');
      return { account: { phone: proved.phone }, amr: proved.amr };
    };
    return { method: 'code', check: async () => ({ spend, notThere: phoneNotFound }) };
  }
}
