// A PIN changed by a person who knows it: the account page's Change PIN and REST's POST /users/me/pin.
//
// Rules it enforces:
// - PINs must be a way to sign in here (SIGNIN_METHODS), else the change is refused as the method is off.
// - The current PIN is checked as every PIN check is: it takes an attempt, so the lock after wrong PINs bounds
//   it. The new PIN must be an acceptable one, and not the current one.
// - The new PIN is written only while the PIN checked is still the account's (storage/rules/pin-change.ts).
// - Every other way the old PIN let in ends: every session but the one that asked (`session.revoked`, reason
//   `pin_changed`), and every single sign-on of the hosted pages but this browser's. Passkeys and recovery
//   codes stay: the person proved the PIN, which an intruder's reset would not have to.
// - `user.pin_changed` is written with the change, and the account's phone is told once it is committed.

import type { SignInMethod } from '../../config/sign-in-settings.ts';
import type { Clock } from '../../providers/clock.ts';
import type { Database } from '../../storage/db.ts';
import { ssoSessionsRepo } from '../../storage/repositories/sso-sessions.ts';
import { usersRepo } from '../../storage/repositories/users.ts';
import { changePinAtVersion } from '../../storage/rules/pin-change.ts';
import { sha256 } from '../crypto.ts';
import { DomainError, fieldError, noSuchUser } from '../errors.ts';
import type { SessionService } from '../sessions/sessions.ts';
import type { Events } from '../webhooks/events.ts';
import { lockedByOperator, pinCheckRefusal } from './account-errors.ts';
import type { AccountNotices } from './account-notices.ts';
import type { AccountService } from './accounts.ts';
import type { PinHasher } from './pin-hasher.ts';
import { assertAcceptablePin, isWellFormedPin } from './pin-rules.ts';
import { assertMethodOn } from './sign-in-methods.ts';

export interface PinChangeDeps {
  db: Database;
  clock: Clock;
  events: Events;
  sessions: SessionService;
  accounts: AccountService;
  pins: PinHasher;
  notices: AccountNotices;
  signInMethods: ReadonlySet<SignInMethod>;
}

/** What asked for the change, and so stays signed in: a REST session, or a browser's single sign-on. */
export interface ChangedFrom {
  session?: string;
  /** the single sign-on cookie's token */
  signOn?: string;
}

export interface PinChangeAnswer {
  changed_at: string;
  /** the sessions the change ended (every one but the one that asked) */
  sessions_ended: number;
}

export class PinChangeService {
  constructor(private readonly d: PinChangeDeps) {}

  async change(
    userId: string,
    pins: { current_pin: string; new_pin: string },
    from: ChangedFrom,
  ): Promise<PinChangeAnswer> {
    assertMethodOn(this.d.signInMethods, 'pin');
    if (!isWellFormedPin(pins.current_pin))
      throw fieldError('INVALID_PIN', 'current_pin', 'PIN must be 4 to 6 digits');
    assertAcceptablePin(pins.new_pin, 'new_pin');
    if (pins.new_pin === pins.current_pin)
      throw fieldError('INVALID_PIN', 'new_pin', 'the new PIN must differ from the current one', {
        reason: 'same_as_current',
      });
    const user = await usersRepo.findLiveById(this.d.db, userId);
    if (!user) throw noSuchUser();
    const checked = await this.d.accounts.verifyPinOf(user, pins.current_pin).catch((err: unknown) => {
      if (err instanceof DomainError && err.code === 'INVALID_CREDENTIALS')
        throw fieldError('INVALID_CREDENTIALS', 'current_pin', 'the current PIN is wrong');
      throw err;
    });
    const pinHash = await this.d.pins.hash(pins.new_pin);
    const now = this.d.clock.now();
    const { account, ended } = await this.d.db.transaction(async (tx) => {
      const written = await changePinAtVersion(tx, { userId, pinVersion: checked.pin_version, pinHash, now });
      if (!written.changed)
        throw written.refusal === 'locked_by_operator'
          ? lockedByOperator()
          : await pinCheckRefusal(tx, userId);
      const revoked = await this.d.sessions.revokeOthersOfUser(
        tx,
        userId,
        from.session ?? null,
        'pin_changed',
      );
      await ssoSessionsRepo.removeOthersOfUser(tx, userId, from.signOn ? sha256(from.signOn) : null);
      const at = now.toISOString();
      await this.d.events.emit(tx, 'user.pin_changed', {
        user_id: userId,
        changed_at: at,
        sessions_ended: revoked.length,
      });
      return { account: written.account, ended: revoked.length };
    });
    await this.d.notices.tell(account, 'phone.pin_changed');
    return { changed_at: now.toISOString(), sessions_ended: ended };
  }
}
