import { addSeconds, type Clock } from '../providers/clock.ts';
import type { Random } from '../providers/random.ts';
import type { SmsProvider } from '../providers/sms/sms-provider.ts';
import type { Database, Queryable } from '../storage/db.ts';
import { otpsRepo } from '../storage/repositories/otps.ts';
import { tempTokensRepo } from '../storage/repositories/temp-tokens.ts';
import { usersRepo } from '../storage/repositories/users.ts';
import { hmac, safeEqual, sha256 } from './crypto.ts';
import { DomainError, fieldError } from './errors.ts';
import { maskPhone, parsePhone } from './phone.ts';
import type { PurposeKeys } from './purpose-keys.ts';

export const OTP_TTL_SECONDS = 300;
export const TEMP_TOKEN_TTL_SECONDS = 600;
/** Spec "Limits": 5 verifications per code (D6). */
export const OTP_MAX_ATTEMPTS = 5;

/** The purposes /auth/otp/* takes (spec). */
export const OTP_PURPOSES = ['signup', 'pin_reset'] as const;
type PublicPurpose = (typeof OTP_PURPOSES)[number];
/** P74: `phone_change` codes are asked for by a signed-in account on /users/me/phone, never on /auth/otp/*. */
export type OtpPurpose = PublicPurpose | 'phone_change';

export function parsePurpose(input: unknown): PublicPurpose {
  if (!OTP_PURPOSES.includes(input as PublicPurpose)) {
    throw fieldError('INVALID_REQUEST', 'purpose', 'purpose must be signup or pin_reset');
  }
  return input as PublicPurpose;
}

/** A code that matched (see OtpService.check), to be consumed in the transaction that acts on it. */
export interface CheckedCode {
  id: string;
}

/** D6 with enumeration protection: what the owner of a number that has an account hears instead of a code. */
const TAKEN_NUMBER_NOTICE: Record<Exclude<OtpPurpose, 'pin_reset'>, string> = {
  signup:
    'Someone tried to create an account with this number, which already has one. Sign in or reset your PIN instead.',
  phone_change:
    'Someone tried to move another account to this number, which already has one. No change was made.',
};

export interface OtpDeps {
  db: Database;
  clock: Clock;
  random: Random;
  sms: SmsProvider;
  /** D35: fixed codes for configured test numbers (never in production) */
  testPhoneNumbers: ReadonlyMap<string, string>;
  codeKeys: PurposeKeys;
  enumerationProtection: boolean;
}

export class OtpService {
  constructor(private readonly d: OtpDeps) {}

  // D6: only a keyed hash is stored; the key is not in the database.
  private hashCode(phone: string, purpose: string, code: string, key = this.d.codeKeys.current) {
    return hmac(key, `${phone}\n${purpose}\n${code}`).toString('base64url');
  }

  /** `e164`: the phone, when the caller has already parsed it (P86). */
  async send(
    phoneInput: unknown,
    purposeInput: unknown,
    e164?: string,
  ): Promise<{ expires_in: number; message: string }> {
    return this.sendCode(e164 ?? parsePhone(phoneInput).e164, parsePurpose(purposeInput));
  }

  /** D6: a new code for a normalised phone; sign-up and a phone change (P74) need a number nobody has. */
  async sendCode(phone: string, purpose: OtpPurpose): Promise<{ expires_in: number; message: string }> {
    const answer = { expires_in: OTP_TTL_SECONDS, message: `Verification code sent to ${maskPhone(phone)}` };
    const registered = !!(await usersRepo.findLiveByPhone(this.d.db, phone));

    // D6: without enumeration protection, say plainly why no code is sent; with it, answer the same success
    // and tell only the phone's owner.
    if (purpose !== 'pin_reset' && registered) {
      if (!this.d.enumerationProtection)
        throw fieldError('PHONE_EXISTS', 'phone', 'this phone number is already registered');
      await this.deliver(phone, TAKEN_NUMBER_NOTICE[purpose]);
      return answer;
    }
    if (purpose === 'pin_reset' && !registered) {
      if (!this.d.enumerationProtection)
        throw fieldError('PHONE_NOT_FOUND', 'phone', 'no account uses this phone number');
      return answer;
    }

    const fixed = this.d.testPhoneNumbers.get(phone);
    const code = fixed ?? this.d.random.digits(6);
    const now = this.d.clock.now();
    const id = this.d.random.uuid();
    await this.d.db.transaction((tx) =>
      otpsRepo.replace(tx, {
        id,
        phone,
        purpose,
        code_hash: this.hashCode(phone, purpose, code),
        created_at: now,
        expires_at: addSeconds(now, OTP_TTL_SECONDS),
      }),
    );
    if (fixed) return answer;
    try {
      await this.deliver(
        phone,
        `Your verification code is ${code}. It expires in 5 minutes. Never share it.`,
      );
    } catch (err) {
      // D37: a failed send leaves no usable code behind.
      await otpsRepo.consume(this.d.db, id, now);
      throw err;
    }
    return answer;
  }

  private async deliver(phone: string, message: string) {
    try {
      await this.d.sms.send(phone, message);
    } catch (err) {
      throw new DomainError('INTERNAL_ERROR', 'the text message could not be sent; try again later', {
        cause: (err as Error).message,
      });
    }
  }

  async verify(
    phoneInput: unknown,
    codeInput: unknown,
    purposeInput: unknown,
  ): Promise<{ verified: true; temp_token: string; expires_in: number }> {
    const phone = parsePhone(phoneInput).e164;
    const purpose = parsePurpose(purposeInput);
    const code = await this.check(phone, purpose, codeInput);
    const now = this.d.clock.now();
    const tempToken = this.d.random.token(32);
    await this.d.db.transaction(async (tx) => {
      await this.consume(tx, code);
      await tempTokensRepo.insert(tx, {
        token_hash: sha256(tempToken),
        phone,
        purpose,
        created_at: now,
        expires_at: addSeconds(now, TEMP_TOKEN_TTL_SECONDS),
      });
    });
    return { verified: true, temp_token: tempToken, expires_in: TEMP_TOKEN_TTL_SECONDS };
  }

  /**
   * D6: evaluates a code against the phone's current one, counting the evaluation first (the 6th burns the
   * code). A match is not yet a use: `consume` it in the transaction that acts on it.
   */
  async check(phone: string, purpose: OtpPurpose, codeInput: unknown): Promise<CheckedCode> {
    if (typeof codeInput !== 'string' || codeInput.length > 32)
      throw fieldError('INVALID_REQUEST', 'code', 'code must be a string');
    const now = this.d.clock.now();
    const otp = await otpsRepo.current(this.d.db, phone, purpose);
    if (!otp || otp.consumed_at)
      throw fieldError('INVALID_OTP', 'code', 'the code is wrong or no longer valid');
    if (otp.expires_at <= now)
      throw fieldError('OTP_EXPIRED', 'code', 'the code has expired; request a new one');

    // D6: count the evaluation before making it; the 6th burns the code.
    const attempt = await otpsRepo.countAttempt(this.d.db, otp.id);
    if (attempt === undefined)
      throw fieldError('INVALID_OTP', 'code', 'the code is wrong or no longer valid');
    if (attempt > OTP_MAX_ATTEMPTS) {
      await otpsRepo.consume(this.d.db, otp.id, now);
      throw new DomainError('RATE_LIMITED', 'too many attempts for this code; request a new one', {
        field: 'code',
      });
    }
    // P99: a code sent before KEY_ENCRYPTION_KEY changed was hashed with the fallback's key.
    const hashes = this.d.codeKeys.all.map((key) => this.hashCode(phone, purpose, codeInput, key));
    if (!hashes.some((h) => safeEqual(h, otp.code_hash))) {
      throw fieldError('INVALID_OTP', 'code', 'the code is wrong', {
        attempts_remaining: OTP_MAX_ATTEMPTS - attempt,
      });
    }

    return { id: otp.id };
  }

  /** A checked code used once: of parallel uses of one code, one gets past this and the others fail. */
  async consume(tx: Queryable, code: CheckedCode): Promise<void> {
    if (!(await otpsRepo.consume(tx, code.id, this.d.clock.now())))
      throw fieldError('INVALID_OTP', 'code', 'the code is wrong or no longer valid');
  }

  /** D7: a cheap look before the expensive PIN hash; consumeTempToken is the real gate. */
  async assertTempToken(token: unknown, purpose: OtpPurpose): Promise<void> {
    if (
      typeof token !== 'string' ||
      !(await tempTokensRepo.findUsable(this.d.db, sha256(token), purpose, this.d.clock.now()))
    ) {
      throw invalidTempToken();
    }
  }

  /** D7: single use, 600 s, bound to its purpose; answers the phone it was issued for. */
  async consumeTempToken(tx: Queryable, token: string, purpose: OtpPurpose): Promise<string> {
    const row = await tempTokensRepo.consume(tx, sha256(token), purpose, this.d.clock.now());
    if (!row) throw invalidTempToken();
    return row.phone;
  }
}

const invalidTempToken = () =>
  fieldError('INVALID_TOKEN', 'temp_token', 'temp_token is unknown, used or expired; verify the phone again');
