// The accounts room: a person's account from sign-up to deletion. It owns sign-up, sign-in with the PIN and
// its lock, the PIN reset, the PIN's hashing and rules, the device a session is opened from, moving an account
// to a new phone number, and deleting it. Codes to the phone come from the codes room; sessions from the
// sessions room.
import type { SignInMethod } from '../../config/sign-in-settings.ts';
import type { Clock } from '../../providers/clock.ts';
import type { Random } from '../../providers/random.ts';
import { type Database, type Queryable, uniqueViolation } from '../../storage/db.ts';
import { type UserRow, usersRepo } from '../../storage/repositories/users.ts';
import { clearPinFailures, type PinHolder, takePinAttempt } from '../../storage/rules/pin-lock.ts';
import { resetPinOfPhone } from '../../storage/rules/pin-reset.ts';
import type { OtpService } from '../codes/otp.ts';
import { fieldError, invalidCredentials } from '../errors.ts';
import { parsePhone } from '../phone.ts';
import { assertAcceptableHandle } from '../profiles/handle-rules.ts';
import type { AccessTokens } from '../sessions/access-tokens.ts';
import { AMR, authOfSession } from '../sessions/authentication.ts';
import type { SessionService } from '../sessions/sessions.ts';
import { type Events, payloads } from '../webhooks/events.ts';
import { accountLocked, handleTaken, lockedByOperator, pinNotSet } from './account-errors.ts';
import { type NewAccountInput, type PinResetInput, parseName, type SignUpInput } from './account-inputs.ts';
import type { PepperOfHash, PinHasher } from './pin-hasher.ts';
import {
  endSessionsAfterPinReset,
  nothingAfterReset,
  openAfterReset,
  type RemovedByReset,
  type AfterReset as ThenAfterReset,
} from './pin-reset-sessions.ts';
import { assertAcceptablePin, isWellFormedPin } from './pin-rules.ts';
import { RestSignIn, type RestTokens } from './sign-in.ts';
import { assertMethodOn } from './sign-in-methods.ts';
import type { CheckedProof, SignInProof } from './sign-in-proof.ts';

export interface AccountDeps {
  db: Database;
  clock: Clock;
  random: Random;
  events: Events;
  otp: OtpService;
  pins: PinHasher;
  sessions: SessionService;
  tokens: AccessTokens;
  firstPartyClientId: string;
  /** the ways of signing in that are on */
  signInMethods: ReadonlySet<SignInMethod>;
  /** whether answers hide which numbers have accounts */
  enumerationProtection: boolean;
}

/** A reset's account, and what else it removed. */
type AfterReset = { user: UserRow; removed: RemovedByReset };

/** The REST surface's account flows: sign-up, sign-in, PIN reset, refresh, logout. */
export class AccountService {
  readonly #rest: RestSignIn;
  constructor(private readonly d: AccountDeps) {
    this.#rest = new RestSignIn(d);
  }

  async signUp(body: SignUpInput, ip: string): Promise<{ user: UserRow } & RestTokens> {
    const { device } = body;
    const { user, extra: opened } = await this.createAccount(body, (tx, user, amr) =>
      this.d.sessions.open(tx, this.#rest.session(user.id, device, ip, amr)),
    );
    return {
      user,
      ...this.#rest.tokens(user.id, opened.session.id, opened.refreshToken, authOfSession(opened.session)),
    };
  }

  /** A verified phone's new account and user.created; `alsoInTx` runs in its transaction (a REST session). */
  async createAccount<T>(
    body: NewAccountInput,
    alsoInTx: (tx: Queryable, user: UserRow, amr: string[]) => Promise<T>,
  ): Promise<{ user: UserRow; extra: T; amr: string[] }> {
    const { temp_token: tempToken, pin, handle } = body;
    assertAcceptablePin(pin);
    assertAcceptableHandle(handle);
    const name = parseName(body.name);
    await this.d.otp.assertTempToken(tempToken, 'signup');
    if (await usersRepo.handleInUse(this.d.db, handle)) throw handleTaken();
    const pinHash = await this.d.pins.hash(pin);
    try {
      return await this.d.db.transaction(async (tx) => {
        // Consuming the temp_token is the gate; a refused insert rolls it back, so the user may retry.
        const proof = await this.d.otp.consumeTempToken(tx, tempToken, 'signup');
        const phone = parsePhone(proof.phone);
        const user = await usersRepo.insert(tx, {
          id: this.d.random.uuid(),
          phone: phone.e164,
          handle,
          name,
          country: phone.country, // the number's country, as the phone library reads it
          pinHash,
          now: this.d.clock.now(),
        });
        await this.d.events.emit(tx, 'user.created', payloads.userCreated(user));
        return { user, extra: await alsoInTx(tx, user, proof.amr), amr: proof.amr };
      });
    } catch (err) {
      const index = uniqueViolation(err);
      if (index === 'users_handle_live') throw handleTaken();
      if (index === 'users_phone_live')
        throw fieldError('PHONE_EXISTS', 'phone', 'this phone number is already registered');
      throw err;
    }
  }

  /**
   * The proof a phone and PIN give, under the lock of wrong PINs; `e164`: the phone, when the caller parsed it
   * already. A correct PIN resets the count of wrong ones as the sign-in holds the account.
   */
  pinProof(phoneInput: string, pin: unknown, e164?: string): SignInProof {
    const check = async (): Promise<CheckedProof> => {
      const user = await this.correctPin({ phone: e164 ?? parsePhone(phoneInput).e164 }, pin);
      const atPin = { userId: user.id, pinVersion: user.pin_version };
      return { pin: atPin, amr: AMR.pin, notThere: invalidCredentials };
    };
    return { method: 'pin', check };
  }

  /**
   * The PIN of an account already found (account deletion, phone change). P88: the account answered carries
   * the version of the PIN checked, for the statement that acts on it.
   */
  verifyPinOf(user: UserRow, pin: string): Promise<UserRow> {
    return this.attemptPin({ id: user.id }, pin);
  }

  /** A PIN check, and a correct PIN resets the count of wrong ones. */
  private async attemptPin(account: PinHolder, pin: unknown): Promise<UserRow> {
    const user = await this.correctPin(account, pin);
    await clearPinFailures(this.d.db, user.id);
    return { ...user, failed_pin_attempts: 0, locked_until: null };
  }

  /**
   * Every PIN check (sign-in, account deletion) takes an attempt first, so the lock bounds them all. The
   * account when the PIN is correct, its count of wrong ones not yet reset: that is the caller's to write.
   */
  private async correctPin(account: PinHolder, pin: unknown): Promise<UserRow> {
    if (!isWellFormedPin(pin)) throw fieldError('INVALID_PIN', 'pin', 'PIN must be 4 to 6 digits');
    const attempt = await takePinAttempt(this.d.db, account, this.d.clock.now());
    if (!attempt.taken) {
      switch (attempt.refusal) {
        case 'no_account':
          await this.d.pins.verifyNothing(pin);
          throw invalidCredentials();
        case 'locked_by_operator':
          throw lockedByOperator();
        case 'locked_by_failures':
          throw accountLocked(attempt.lockedUntil);
      }
    }
    const user = attempt.account;
    if (user.pin_hash === null) {
      await this.d.pins.verifyNothing(pin);
      throw pinNotSet(this.d.enumerationProtection);
    }
    if (await this.d.pins.verify(user.pin_hash, pin)) {
      await this.rehashIfOutdated(user.id, user.pin_hash, pin);
      return user;
    }
    // The attempt that reached the threshold locked the account: say so now rather than on the next try.
    if (user.locked_until) throw accountLocked(user.locked_until);
    throw invalidCredentials();
  }

  /** A correct PIN whose hash has other parameters or another pepper than today's is hashed again. */
  private async rehashIfOutdated(userId: string, hash: string, pin: string): Promise<void> {
    if (this.d.pins.isCurrent(hash)) return;
    const renewed = await this.d.pins.renewed(hash, pin);
    await usersRepo.replacePinHash(this.d.db, userId, hash, renewed);
  }

  /** The live accounts' PIN hashes by the pepper that made them, while PIN_PEPPER changes. */
  async pinPeppers(): Promise<Record<PepperOfHash, number>> {
    const counts = { current: 0, fallback: 0, unnamed: 0, other: 0 };
    for (const { key_id, n } of await usersRepo.countByPinKeyId(this.d.db))
      counts[this.d.pins.pepperOf(key_id)] += n;
    return counts;
  }

  /** Sets the PIN, unlocks, ends every session and the ways in made under the old PIN; signs in anew. */
  async resetPin(body: PinResetInput, ip: string): Promise<AfterReset & RestTokens> {
    const { device } = body;
    const open = openAfterReset(this.d.sessions, (id, amr) => this.#rest.session(id, device, ip, amr));
    const { user, removed, after: opened } = await this.resetPinThen(body, open);
    const auth = authOfSession(opened.session);
    return { user, removed, ...this.#rest.tokens(user.id, opened.session.id, opened.refreshToken, auth) };
  }

  /** The same on the hosted pages, which open no session; `amr`: how its code proved the phone. */
  async resetPinOnPage(body: { temp_token: string; pin: string }): Promise<AfterReset & { amr: string[] }> {
    const { user, amr, removed } = await this.resetPinThen(body, nothingAfterReset);
    return { user, amr, removed };
  }

  private async resetPinThen<T>(body: { temp_token: string; pin: string }, then: ThenAfterReset<T>) {
    const { temp_token: tempToken, pin } = body;
    assertMethodOn(this.d.signInMethods, 'pin');
    assertAcceptablePin(pin);
    await this.d.otp.assertTempToken(tempToken, 'pin_reset');
    const pinHash = await this.d.pins.hash(pin);
    return this.d.db.transaction(async (tx) => {
      const proof = await this.d.otp.consumeTempToken(tx, tempToken, 'pin_reset');
      const now = this.d.clock.now();
      // The account that has the number when the PIN is written, not one that has just moved off it.
      const reset = await resetPinOfPhone(tx, proof.phone, pinHash, now);
      const noAccount = () => fieldError('PHONE_NOT_FOUND', 'phone', 'no account uses this phone number');
      const ended = await endSessionsAfterPinReset(tx, this.d, reset, noAccount, { now, by: 'code' });
      const after = await then(tx, ended.user.id, proof.amr);
      return { ...ended, amr: proof.amr, after };
    });
  }

  async refresh(token: string): Promise<RestTokens> {
    const rotated = await this.d.sessions.rotate(token, this.d.firstPartyClientId);
    return this.#rest.tokens(rotated.userId, rotated.sessionId, rotated.refreshToken, rotated.auth);
  }
}
