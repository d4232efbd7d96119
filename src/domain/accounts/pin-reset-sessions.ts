// What a PIN reset does to the account's sessions, whichever way it was proved (a code to the phone, or a
// recovery code).
//
// Rules it enforces:
// - A reset of an account the operator locked is refused, and throwing rolls it back: it does not lift the
//   operator's lock.
// - A reset ends every session of the account (`session.revoked`, reason `pin_reset`) and the authorization
//   page's single sign-ons: a reset after a compromise leaves no way back in.
// - Then, on the REST surface, one new session opens for the device that reset; the hosted pages go on to
//   their single sign-on instead.
import type { Queryable } from '../../storage/db.ts';
import { ssoSessionsRepo } from '../../storage/repositories/sso-sessions.ts';
import type { UserRow } from '../../storage/repositories/users.ts';
import type { PinReset } from '../../storage/rules/pin-reset.ts';
import type { DomainError } from '../errors.ts';
import type { OpenedSession, SessionService, SessionToOpen } from '../sessions/sessions.ts';
import { lockedByOperator } from './account-errors.ts';

/** The account whose PIN was reset, with every session and single sign-on of it ended. */
export async function endSessionsAfterPinReset(
  tx: Queryable,
  sessions: SessionService,
  reset: PinReset,
  gone: () => DomainError,
): Promise<UserRow> {
  if (!reset.reset)
    switch (reset.refusal) {
      case 'no_account_with_phone':
        throw gone();
      case 'locked_by_operator':
        throw lockedByOperator();
    }
  const user = reset.account;
  await sessions.revokeAllOfUser(tx, user.id, 'pin_reset');
  await ssoSessionsRepo.removeAllOfUser(tx, user.id);
  return user;
}

/** What a reset goes on to, in its transaction: a REST session's opening, or nothing (the hosted pages). */
export type AfterReset<T> = (tx: Queryable, userId: string, amr: string[]) => Promise<T>;

/** The REST surface's: one new session, for the device that reset. */
export const openAfterReset =
  (
    sessions: SessionService,
    session: (userId: string, amr: string[]) => SessionToOpen,
  ): AfterReset<OpenedSession> =>
  (tx, userId, amr) =>
    sessions.open(tx, session(userId, amr));

/** The hosted pages': nothing here; the page starts its single sign-on. */
export const nothingAfterReset: AfterReset<undefined> = async () => undefined;
