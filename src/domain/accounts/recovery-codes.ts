// Recovery codes: ten single-use codes, shown once, that reset the PIN without a code to the phone, so an
// account survives a lost, stolen or taken-over number.
//
// Rules it enforces:
// - Making a set needs the PIN (counted against the PIN lock), or a passkey's sign-in at most 10 minutes old.
// - A set is shown once and kept only as argon2id hashes (recovery-code-format.ts says what a code is); a new
//   set replaces the old one whole.
// - A reset by a recovery code answers as a reset by a code to the phone (the PIN set, the lock lifted, every
//   other session ended, a new one opened: pin-reset-sessions.ts). A wrong, used or malformed code answers
//   INVALID_CREDENTIALS, and so does an unknown number under ENUMERATION_PROTECTION, after the same hashing.
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
import { DomainError, fieldError, noSuchUser } from '../errors.ts';
import { parsePhone } from '../phone.ts';
import type { AccessTokens } from '../sessions/access-tokens.ts';
import { AMR, authOfSession } from '../sessions/authentication.ts';
import { assertRecentPasskeySignIn } from '../sessions/recent-sign-in.ts';
import { RestSignIn, type RestTokens } from '../sessions/rest-sign-in.ts';
import type { SessionService } from '../sessions/sessions.ts';
import type { Events } from '../webhooks/events.ts';
import type { DeviceInput } from './account-inputs.ts';
import type { AccountNotices } from './account-notices.ts';
import type { AccountService } from './accounts.ts';
import { parseDevice } from './device.ts';
import type { PinHasher } from './pin-hasher.ts';
import {
  type AfterReset,
  endSessionsAfterPinReset,
  nothingAfterReset,
  openAfterReset,
} from './pin-reset-sessions.ts';
import { assertAcceptablePin } from './pin-rules.ts';
import { CODES_PER_SET, newRecoveryCode, normalRecoveryCode } from './recovery-code-format.ts';

export interface RecoveryCodeDeps {
  db: Database;
  clock: Clock;
  random: Random;
  events: Events;
  sessions: SessionService;
  accounts: AccountService;
  pins: PinHasher;
  tokens: AccessTokens;
  firstPartyClientId: string;
  enumerationProtection: boolean;
  /** tells the account's phone of a reset by a recovery code */
  notices: AccountNotices;
  /** told of each PIN reset by a recovery code, for the metrics */
  onSignIn?: (method: 'recovery_code') => void;
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

const SALT_BYTES = 16;

const invalidCode = () => new DomainError('INVALID_CREDENTIALS', 'wrong phone number or recovery code');

export class RecoveryCodeService {
  readonly #rest: RestSignIn;
  constructor(private readonly d: RecoveryCodeDeps) {
    this.#rest = new RestSignIn(d);
  }

  /** A new set for the caller's account, shown this once. */
  async generate(
    caller: RecoveryCaller,
    body: { pin?: string },
  ): Promise<{ codes: string[]; created_at: Date }> {
    if (body.pin !== undefined) {
      const user = await usersRepo.findLiveById(this.d.db, caller.userId);
      if (!user) throw noSuchUser();
      await this.d.accounts.verifyPinOf(user, body.pin);
    } else {
      const auth = 'sessionId' in caller ? await this.d.sessions.authOf(caller.sessionId) : caller.auth;
      assertRecentPasskeySignIn(auth, this.d.clock.now());
    }
    const codes = Array.from({ length: CODES_PER_SET }, () => newRecoveryCode(this.d.random));
    const salt = this.d.random.bytes(SALT_BYTES);
    const hashes = await Promise.all(
      codes.map((code) => this.d.pins.hashWithSalt(normalRecoveryCode(code) ?? code, salt)),
    );
    const createdAt = this.d.clock.now();
    await this.d.db.transaction(async (tx) => {
      await replaceRecoveryCodes(tx, { userId: caller.userId, hashes, salt, createdAt });
      await this.d.events.emit(tx, 'recovery_codes.generated', {
        user_id: caller.userId,
        created_at: createdAt.toISOString(),
      });
    });
    return { codes, created_at: createdAt };
  }

  /**
   * Whether a reset page offers a recovery code for this number: where its account has one left, or always
   * under enumeration protection (so the offer does not tell which numbers have accounts).
   */
  async offeredFor(phone: string): Promise<boolean> {
    return this.d.enumerationProtection || !!(await recoveryOfPhone(this.d.db, phone))?.salt;
  }

  /** How many codes of the account's set are left, and when it was made. */
  status(userId: string): Promise<{ remaining: number; created_at: Date | null }> {
    return recoveryCodesOf(this.d.db, userId);
  }

  /** Sets a new PIN with a recovery code instead of a code to the phone. */
  async resetPin(body: RecoveryReset, ip: string): Promise<{ user: UserRow } & RestTokens> {
    const device = parseDevice(body.device);
    const open = openAfterReset(this.d.sessions, (id, amr) => this.#rest.session(id, device, ip, amr));
    const { user, after: opened } = await this.resetPinThen(body, open);
    const auth = authOfSession(opened.session);
    return { user, ...this.#rest.tokens(user.id, opened.session.id, opened.refreshToken, auth) };
  }

  /** The same on the hosted pages, which open no session: the account, and the code's methods. */
  async resetPinOnPage(body: Omit<RecoveryReset, 'device'>): Promise<{ user: UserRow; amr: string[] }> {
    const { user } = await this.resetPinThen(body, nothingAfterReset);
    return { user, amr: AMR.recoveryCode };
  }

  private async resetPinThen<T>(body: Omit<RecoveryReset, 'device'>, then: AfterReset<T>) {
    const phone = parsePhone(body.phone).e164;
    assertAcceptablePin(body.pin);
    const match = await this.matchingCode(phone, body.recovery_code);
    const pinHash = await this.d.pins.hash(body.pin);
    const now = this.d.clock.now();
    const done = await this.d.db.transaction(async (tx) => {
      const used = await useRecoveryCode(tx, { userId: match.id, hash: match.hash, now });
      if (!used) throw invalidCode();
      const reset = await resetPinOfAccount(tx, match.id, pinHash, now);
      const user = await endSessionsAfterPinReset(tx, this.d.sessions, reset, invalidCode);
      await this.d.events.emit(tx, 'recovery_code.used', {
        user_id: match.id,
        used_at: now.toISOString(),
        remaining: used.remaining,
      });
      return { user, after: await then(tx, user.id, AMR.recoveryCode) };
    });
    this.d.onSignIn?.('recovery_code');
    await this.d.notices.tell(done.user, 'phone.pin_reset_by_recovery_code');
    return done;
  }

  /**
   * The account of the number and the hash of the code typed, when the account has that code unused; else
   * INVALID_CREDENTIALS (PHONE_NOT_FOUND for an unknown number without enumeration protection). Every answer
   * comes after one argon2id hash.
   */
  private async matchingCode(phone: string, typed: string): Promise<{ id: string; hash: string }> {
    const code = normalRecoveryCode(typed);
    const found = await recoveryOfPhone(this.d.db, phone);
    if (!found && !this.d.enumerationProtection)
      throw fieldError('PHONE_NOT_FOUND', 'phone', 'no account uses this phone number');
    const salt = found?.salt ?? this.d.random.bytes(SALT_BYTES);
    const hashed = await this.d.pins.hashWithSalt(code ?? typed.slice(0, 64), salt);
    if (!found?.salt || !code || !(await hasRecoveryCode(this.d.db, found.user_id, hashed)))
      throw invalidCode();
    return { id: found.user_id, hash: hashed };
  }
}
