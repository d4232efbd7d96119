// Which ways of signing in are on.
//
// Rules it enforces:
// - A way of signing in that SIGNIN_METHODS does not list (`pin`, `passkey`, `code`) is refused before
//   anything is checked or counted against the account: FORBIDDEN with `details.reason: "method_disabled"`.
import type { SignInMethod } from '../../config/sign-in-settings.ts';
import { DomainError } from '../errors.ts';

export function assertMethodOn(on: ReadonlySet<SignInMethod>, method: SignInMethod): void {
  if (!on.has(method))
    throw new DomainError('FORBIDDEN', `signing in with a ${method} is turned off on this service`, {
      reason: 'method_disabled',
      method,
    });
}
