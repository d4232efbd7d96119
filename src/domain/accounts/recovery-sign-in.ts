// Where PINs are off (SIGNIN_METHODS without `pin`), a recovery code is what its name says: a way to recover the
// account's passkeys. It signs in once, so that the person can register a new passkey.
//
// Rules it enforces:
// - It works only where PINs are off; elsewhere a recovery code resets the PIN (recovery-codes.ts) and this
//   answers FORBIDDEN `method_disabled`.
// - The code is used in the transaction that opens the session, so one code signs in once; the account is the
//   live one the code was made for, not locked by the operator (storage/rules/pinless-sign-in.ts).
// - Each use is `recovery_code.used`, counted as a sign-in by recovery code, and told to the account's phone.
// - A wrong, used or malformed code answers INVALID_CREDENTIALS, and is counted by the sign-in limits of the
//   number and the address like a PIN (the routes count them).
import type { SignInMethod } from '../../config/sign-in-settings.ts';
import type { Clock } from '../../providers/clock.ts';
import type { Database, Queryable } from '../../storage/db.ts';
import type { UserRow } from '../../storage/repositories/users.ts';
import { holdAccountForSignIn } from '../../storage/rules/pinless-sign-in.ts';
import { useRecoveryCode } from '../../storage/rules/recovery-codes.ts';
import { parsePhone } from '../phone.ts';
import type { AccessTokens } from '../sessions/access-tokens.ts';
import { AMR, authOfSession } from '../sessions/authentication.ts';
import { RestSignIn, type RestTokens } from '../sessions/rest-sign-in.ts';
import type { SessionService } from '../sessions/sessions.ts';
import type { Events } from '../webhooks/events.ts';
import { lockedByOperator } from './account-errors.ts';
import type { DeviceInput } from './account-inputs.ts';
import type { AccountNotices } from './account-notices.ts';
import { parseDevice } from './device.ts';
import { invalidCode, type RecoveryCodeService } from './recovery-codes.ts';
import { assertRecoverySignInOn } from './sign-in-methods.ts';

export interface RecoverySignInDeps {
  db: Database;
  clock: Clock;
  events: Events;
  sessions: SessionService;
  tokens: AccessTokens;
  firstPartyClientId: string;
  signInMethods: ReadonlySet<SignInMethod>;
  recoveryCodes: Pick<RecoveryCodeService, 'matching'>;
  notices: AccountNotices;
  onSignIn?: (method: 'recovery_code') => void;
}

export interface RecoverySignInInput {
  phone: string;
  recovery_code: string;
  device?: DeviceInput;
}

export class RecoverySignIn {
  readonly #rest: RestSignIn;
  constructor(private readonly d: RecoverySignInDeps) {
    this.#rest = new RestSignIn(d);
  }

  /** A session of its own for the account the code was made for, and its tokens (REST). */
  async signIn(body: RecoverySignInInput, ip: string): Promise<{ user: UserRow } & RestTokens> {
    const device = parseDevice(body.device);
    const { user, after: opened } = await this.useCode(body, (tx, userId) =>
      this.d.sessions.open(tx, this.#rest.session(userId, device, ip, AMR.recoveryCode)),
    );
    const auth = authOfSession(opened.session);
    return { user, ...this.#rest.tokens(user.id, opened.session.id, opened.refreshToken, auth) };
  }

  /** The same on the hosted pages, which go on to their single sign-on: the account and the code's methods. */
  async signInOnPage(body: Omit<RecoverySignInInput, 'device'>): Promise<{ user: UserRow; amr: string[] }> {
    const { user } = await this.useCode(body, async () => undefined);
    return { user, amr: AMR.recoveryCode };
  }

  private async useCode<T>(
    body: Omit<RecoverySignInInput, 'device'>,
    then: (tx: Queryable, userId: string) => Promise<T>,
  ): Promise<{ user: UserRow; after: T }> {
    assertRecoverySignInOn(this.d.signInMethods);
    const phone = parsePhone(body.phone).e164;
    const match = await this.d.recoveryCodes.matching(phone, body.recovery_code);
    const now = this.d.clock.now();
    const done = await this.d.db.transaction(async (tx) => {
      const held = await holdAccountForSignIn(tx, { userId: match.id });
      if (!held.held) throw held.refusal === 'locked_by_operator' ? lockedByOperator() : invalidCode();
      const used = await useRecoveryCode(tx, { userId: match.id, hash: match.hash, now });
      if (!used) throw invalidCode();
      await this.d.events.emit(tx, 'recovery_code.used', {
        user_id: match.id,
        used_at: now.toISOString(),
        remaining: used.remaining,
      });
      return { user: held.account, after: await then(tx, match.id) };
    });
    this.d.onSignIn?.('recovery_code');
    await this.d.notices.tell(done.user, 'phone.signed_in_by_recovery_code');
    return done;
  }
}
