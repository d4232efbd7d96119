// What a PIN reset does to the account's sessions, whichever way it was proved (a code to the phone, or a
// recovery code).
//
// Rules it enforces:
// - A reset of an account the operator locked is refused, and throwing rolls it back: it does not lift the
//   operator's lock.
// - A reset ends every session of the account (`session.revoked`, reason `pin_reset`) and the authorization
//   page's single sign-ons: a reset after a compromise leaves no way back in.
// - It ends too the passkeys and the recovery-code set made since the PIN was last set, and the set of the
//   recovery code it used (storage/rules/reset-ends-ways-in.ts): each passkey with `passkey.deleted`, and
//   `user.pin_reset` says what was removed.
// - Then, on the REST surface, one new session opens for the device that reset; the hosted pages go on to
//   their single sign-on instead.
import type { Queryable } from '../../storage/db.ts';
import { ssoSessionsRepo } from '../../storage/repositories/sso-sessions.ts';
import type { UserRow } from '../../storage/repositories/users.ts';
import type { PinReset } from '../../storage/rules/pin-reset.ts';
import { endWaysMadeUnderOldPin } from '../../storage/rules/reset-ends-ways-in.ts';
import type { DomainError } from '../errors.ts';
import type { OpenedSession, SessionService, SessionToOpen } from '../sessions/sessions.ts';
import type { Events } from '../webhooks/events.ts';
import { lockedByOperator } from './account-errors.ts';

/** What a reset removed besides the sessions, as its answer, page and event say it. */
export interface RemovedByReset {
  passkeys: number;
  recovery_codes: boolean;
}

/** How the reset was proved, and when. */
export interface ResetProof {
  now: Date;
  by: 'code' | 'recovery_code';
}

/**
 * The account whose PIN was reset, with every session and single sign-on of it ended, and the ways in made
 * under its old PIN.
 */
export async function endSessionsAfterPinReset(
  tx: Queryable,
  d: { sessions: SessionService; events: Events },
  reset: PinReset,
  gone: () => DomainError,
  proof: ResetProof,
): Promise<{ user: UserRow; removed: RemovedByReset }> {
  if (!reset.reset)
    switch (reset.refusal) {
      case 'no_account_with_phone':
        throw gone();
      case 'locked_by_operator':
        throw lockedByOperator();
    }
  const user = reset.account;
  await d.sessions.revokeAllOfUser(tx, user.id, 'pin_reset');
  await ssoSessionsRepo.removeAllOfUser(tx, user.id);
  const byRecoveryCode = proof.by === 'recovery_code';
  const ended = await endWaysMadeUnderOldPin(tx, { userId: user.id, now: proof.now, byRecoveryCode });
  const at = proof.now.toISOString();
  for (const passkeyId of ended.passkeyIds)
    await d.events.emit(tx, 'passkey.deleted', { user_id: user.id, passkey_id: passkeyId, deleted_at: at });
  const removed = { passkeys: ended.passkeyIds.length, recovery_codes: ended.recoveryCodes };
  await d.events.emit(tx, 'user.pin_reset', { user_id: user.id, reset_at: at, by: proof.by, removed });
  return { user: { ...user, pin_set_at: proof.now }, removed };
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
