// Recovery codes: ten single-use codes, shown once, that reset the PIN without a code to the phone (or, where
// PINs are off, sign in once: recovery-sign-in.ts), so an account survives a lost, stolen or taken-over number.
//
// Rules it enforces:
// - Making a set needs the PIN (counted against the PIN lock), or a passkey's sign-in at most 10 minutes old,
//   and is limited per account (`recovery_codes_user`, 5 sets an hour by default) before anything is checked.
// - A new set is told to the account's phone, in its language: it replaces the set before, the owner's too.
// - A set is shown once and kept only as keyed hashes (recovery-code-hashes.ts); a new set replaces the old
//   one whole, and only for someone who signed in after the PIN was last set.
// - A reset by a recovery code answers as a reset by a code to the phone (the PIN set, the lock lifted, every
//   other session ended, the ways in made under the old PIN ended with the code's own set, a new session
//   opened: pin-reset-sessions.ts). It needs PINs on. A wrong, used or malformed code answers
//   INVALID_CREDENTIALS, and so does an unknown number under ENUMERATION_PROTECTION, after the same hashing.
import type { SignInMethod } from '../../config/sign-in-settings.ts';
import type { Clock } from '../../providers/clock.ts';
import type { Random } from '../../providers/random.ts';
import type { Database } from '../../storage/db.ts';
import type { UserRow } from '../../storage/repositories/users.ts';
import { usersRepo } from '../../storage/repositories/users.ts';
import { resetPinOfAccount } from '../../storage/rules/pin-reset.ts';
import {
  hasRecoveryCode,
  recoveryCodesOf,
  recoveryOfPhone,
  replaceRecoveryCodes,
  useRecoveryCode,
} from '../../storage/rules/recovery-codes.ts';
import type { Count } from '../counts.ts';
import { DomainError, fieldError, noSuchUser } from '../errors.ts';
import { parsePhone } from '../phone.ts';
import type { PurposeKeys } from '../purpose-keys.ts';
import type { RateLimiter } from '../rate-limiter.ts';
import type { AccessTokens } from '../sessions/access-tokens.ts';
import { AMR, authOfSession } from '../sessions/authentication.ts';
import { assertRecentPasskeySignIn } from '../sessions/recent-sign-in.ts';
import type { SessionService } from '../sessions/sessions.ts';
import type { Events } from '../webhooks/events.ts';
import type { DeviceInput } from './account-inputs.ts';
import type { AccountNotices } from './account-notices.ts';
import type { AccountService } from './accounts.ts';
import type { PinHasher } from './pin-hasher.ts';
import {
  type AfterReset,
  endSessionsAfterPinReset,
  nothingAfterReset,
  openAfterReset,
  type RemovedByReset,
} from './pin-reset-sessions.ts';
import { assertAcceptablePin } from './pin-rules.ts';
import { CODES_PER_SET, newRecoveryCode, normalRecoveryCode } from './recovery-code-format.ts';
import { RecoveryCodeHashes } from './recovery-code-hashes.ts';
import { RestSignIn, type RestTokens } from './sign-in.ts';
import { assertMethodOn } from './sign-in-methods.ts';

export interface RecoveryCodeDeps {
  db: Database;
  clock: Clock;
  random: Random;
  events: Events;
  sessions: SessionService;
  accounts: AccountService;
  pins: PinHasher;
  /** the keys that seal each set's own key */
  setKeys: PurposeKeys;
  rateLimiter: RateLimiter;
  /** the ways of signing in that are on: a reset needs `pin` */
  signInMethods: ReadonlySet<SignInMethod>;
  tokens: AccessTokens;
  firstPartyClientId: string;
  enumerationProtection: boolean;
  /** tells the account's phone of a reset by a recovery code */
  notices: AccountNotices;
  /** each PIN reset by a recovery code, counted as a sign-in by one */
  signIns?: Count<'method'>;
}

/**
 * Who asks: the account, and the session its token belongs to, or (on the account page, which has no session
 * of its own) how and when it signed in.
 */
export type RecoveryCaller =
  | { userId: string; sessionId: string }
  | { userId: string; auth: { authTime: Date; amr: string[] } };

export interface RecoveryReset {
  phone: string;
  recovery_code: string;
  pin: string;
  device?: DeviceInput;
}

export const invalidCode = () =>
  new DomainError('INVALID_CREDENTIALS', 'wrong phone number or recovery code');

export class RecoveryCodeService {
  readonly #rest: RestSignIn;
  readonly #hashes: RecoveryCodeHashes;
  constructor(private readonly d: RecoveryCodeDeps) {
    this.#rest = new RestSignIn(d);
    this.#hashes = new RecoveryCodeHashes({ setKeys: d.setKeys, random: d.random, pins: d.pins });
  }

  /** A new set for the caller's account, shown this once. */
  async generate(
    caller: RecoveryCaller,
    body: { pin?: string },
  ): Promise<{ codes: string[]; created_at: Date }> {
    const { exceeded } = await this.d.rateLimiter.hit([['recovery_codes_user', caller.userId]]);
    if (exceeded) throw exceeded;
    const user = await usersRepo.findLiveById(this.d.db, caller.userId);
    if (!user) throw noSuchUser();
    const signedInAt = await this.provenAt(caller, user, body);
    const codes = Array.from({ length: CODES_PER_SET }, () => newRecoveryCode(this.d.random));
    const { codeKeyEnc, hashes } = this.#hashes.newSet(codes.map((code) => normalRecoveryCode(code) ?? code));
    const createdAt = this.d.clock.now();
    const sessionId = 'sessionId' in caller ? caller.sessionId : null;
    await this.d.db.transaction(async (tx) => {
      const set = { userId: user.id, hashes, codeKeyEnc, createdAt, sessionId, signedInAt };
      const kept = await replaceRecoveryCodes(tx, set);
      if (!kept.kept && kept.refusal === 'no_account') throw noSuchUser();
      if (!kept.kept) throw signedInBeforeReset();
      await this.d.events.emit(tx, 'recovery_codes.generated', {
        user_id: user.id,
        created_at: createdAt.toISOString(),
      });
    });
    await this.d.notices.tell(user, 'phone.recovery_codes_created');
    return { codes, created_at: createdAt };
  }

  /** When the caller proved who they are: now, by the PIN; else their passkey's recent sign-in. */
  private async provenAt(caller: RecoveryCaller, user: UserRow, body: { pin?: string }): Promise<Date> {
    if (body.pin !== undefined) {
      await this.d.accounts.verifyPinOf(user, body.pin);
      return this.d.clock.now();
    }
    const auth = 'sessionId' in caller ? await this.d.sessions.authOf(caller.sessionId) : caller.auth;
    assertRecentPasskeySignIn(auth, this.d.clock.now());
    return (auth as { authTime: Date }).authTime;
  }

  /**
   * Whether a reset page offers a recovery code for this number: where its account has one left, or always
   * under enumeration protection (so the offer does not tell which numbers have accounts).
   */
  async offeredFor(phone: string): Promise<boolean> {
    return this.d.enumerationProtection || !!(await recoveryOfPhone(this.d.db, phone))?.set;
  }

  /** How many codes of the account's set are left, and when it was made. */
  async status(userId: string): Promise<{ remaining: number; created_at: Date | null }> {
    const { remaining, created_at } = await recoveryCodesOf(this.d.db, userId);
    return { remaining, created_at };
  }

  /** Sets a new PIN with a recovery code instead of a code to the phone. */
  async resetPin(
    body: RecoveryReset,
    ip: string,
  ): Promise<{ user: UserRow; removed: RemovedByReset } & RestTokens> {
    const { device } = body;
    const open = openAfterReset(this.d.sessions, (id, amr) => this.#rest.session(id, device, ip, amr));
    const { user, removed, after: opened } = await this.resetPinThen(body, open);
    const auth = authOfSession(opened.session);
    return { user, removed, ...this.#rest.tokens(user.id, opened.session.id, opened.refreshToken, auth) };
  }

  /** The same on the hosted pages, which open no session: the account, the code's methods, and what went. */
  async resetPinOnPage(
    body: Omit<RecoveryReset, 'device'>,
  ): Promise<{ user: UserRow; amr: string[]; removed: RemovedByReset }> {
    const { user, removed } = await this.resetPinThen(body, nothingAfterReset);
    return { user, amr: AMR.recoveryCode, removed };
  }

  private async resetPinThen<T>(body: Omit<RecoveryReset, 'device'>, then: AfterReset<T>) {
    assertMethodOn(this.d.signInMethods, 'pin');
    const phone = parsePhone(body.phone).e164;
    assertAcceptablePin(body.pin);
    const match = await this.matching(phone, body.recovery_code);
    const pinHash = await this.d.pins.hash(body.pin);
    const now = this.d.clock.now();
    const done = await this.d.db.transaction(async (tx) => {
      const used = await useRecoveryCode(tx, { userId: match.id, hash: match.hash, now });
      if (!used) throw invalidCode();
      const reset = await resetPinOfAccount(tx, match.id, pinHash, now);
      const proof = { now, by: 'recovery_code' } as const;
      const ended = await endSessionsAfterPinReset(tx, this.d, reset, invalidCode, proof);
      await this.d.events.emit(tx, 'recovery_code.used', {
        user_id: match.id,
        used_at: now.toISOString(),
        remaining: ended.removed.recovery_codes ? 0 : used.remaining,
      });
      return { ...ended, after: await then(tx, ended.user.id, AMR.recoveryCode) };
    });
    this.d.signIns?.inc({ method: 'recovery_code' });
    await this.d.notices.tell(done.user, 'phone.pin_reset_by_recovery_code');
    return done;
  }

  /**
   * The account of the number and the hash of the code typed, when the account has that code unused; else
   * INVALID_CREDENTIALS (PHONE_NOT_FOUND for an unknown number without enumeration protection). Every answer
   * comes after the same kind of hashing.
   */
  async matching(phone: string, typed: string): Promise<{ id: string; hash: string }> {
    const code = normalRecoveryCode(typed);
    const found = await recoveryOfPhone(this.d.db, phone);
    if (!found && !this.d.enumerationProtection)
      throw fieldError('PHONE_NOT_FOUND', 'phone', 'no account uses this phone number');
    const hashed = await this.#hashes.hashOf(found?.set, typed, code);
    if (!found?.set || !code || !(await hasRecoveryCode(this.d.db, found.user_id, hashed)))
      throw invalidCode();
    return { id: found.user_id, hash: hashed };
  }
}

const signedInBeforeReset = () =>
  new DomainError('FORBIDDEN', 'the PIN was reset after this sign-in: sign in again', {
    reason: 'signed_in_before_pin_reset',
  });
