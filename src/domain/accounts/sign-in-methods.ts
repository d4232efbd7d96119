// Which ways of signing in are on. Every way in asks here, whichever surface it came by (REST, the hosted
// pages, the account page), so a way that is off is refused the same everywhere.
//
// Rules it enforces:
// - A way of signing in that SIGNIN_METHODS does not list (`pin`, `passkey`, `code`) is refused before
//   anything is checked or counted against the account: FORBIDDEN with `details.reason: "method_disabled"`.
// - A code to sign in with needs `code`.
// - A PIN reset (by a code to the phone or by a recovery code) needs `pin`: where PINs are off there is no PIN
//   to reset, and a reset would make a code to the phone a way in that the service has turned off.
// - Signing in once with a recovery code, to register a new passkey, is the recovery codes' use where PINs
//   are off, and only there.
import type { SignInMethod } from '../../config/sign-in-settings.ts';
import type { OtpPurpose } from '../codes/purposes.ts';
import { DomainError } from '../errors.ts';

export function assertMethodOn(on: ReadonlySet<SignInMethod>, method: SignInMethod): void {
  if (!on.has(method))
    throw new DomainError('FORBIDDEN', `signing in with a ${method} is turned off on this service`, {
      reason: 'method_disabled',
      method,
    });
}

/** The way of signing in a code of each purpose leads to, where it leads to one. */
const METHOD_OF_PURPOSE: Partial<Record<OtpPurpose, SignInMethod>> = {
  signin: 'code',
  pin_reset: 'pin',
};

/** A code is sent and checked only for a purpose whose way in is on. */
export function assertPurposeOn(on: ReadonlySet<SignInMethod>, purpose: OtpPurpose): void {
  const method = METHOD_OF_PURPOSE[purpose];
  if (method) assertMethodOn(on, method);
}

/** What a recovery code does on this service: resets the PIN, or (PINs off) signs in once. */
export const recoveryCodeUse = (on: ReadonlySet<SignInMethod>): 'pin_reset' | 'signin' =>
  on.has('pin') ? 'pin_reset' : 'signin';

/** A recovery code signs in by itself only where PINs are off (else it resets the PIN). */
export function assertRecoverySignInOn(on: ReadonlySet<SignInMethod>): void {
  if (recoveryCodeUse(on) !== 'signin')
    throw new DomainError('FORBIDDEN', 'a recovery code resets the PIN on this service', {
      reason: 'method_disabled',
      method: 'recovery_code',
    });
}
