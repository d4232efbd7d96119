// What a PIN reset does to the account's sessions, whichever way it was proved (a code to the phone, or a
// recovery code).
//
// Rules it enforces:
// - A reset of an account the operator locked is refused, and throwing rolls it back: it does not lift the
//   operator's lock.
// - A reset ends every session of the account (`session.revoked`, reason `pin_reset`) and the authorization
//   page's single sign-ons: a reset after a compromise leaves no way back in.
// - Then one new session opens, for the device that reset.
import type { Queryable } from '../../storage/db.ts';
import { ssoSessionsRepo } from '../../storage/repositories/sso-sessions.ts';
import type { UserRow } from '../../storage/repositories/users.ts';
import type { PinReset } from '../../storage/rules/pin-reset.ts';
import type { DomainError } from '../errors.ts';
import type { OpenedSession, SessionService, SessionToOpen } from '../sessions/sessions.ts';
import { lockedByOperator } from './account-errors.ts';

export async function reopenAfterPinReset(
  tx: Queryable,
  sessions: SessionService,
  reset: PinReset,
  how: { gone: () => DomainError; session: (userId: string) => SessionToOpen },
): Promise<{ user: UserRow; opened: OpenedSession }> {
  if (!reset.reset)
    switch (reset.refusal) {
      case 'no_account_with_phone':
        throw how.gone();
      case 'locked_by_operator':
        throw lockedByOperator();
    }
  const user = reset.account;
  await sessions.revokeAllOfUser(tx, user.id, 'pin_reset');
  await ssoSessionsRepo.removeAllOfUser(tx, user.id);
  const opened = await sessions.open(tx, how.session(user.id));
  return { user, opened };
}
