// The codes room: one-time codes to a phone. It owns making, storing (hashed), sending and checking a code
// for sign-up, PIN reset and phone change, and the temp token a right code answers. What a send must pass is
// the SMS defence's; how a message travels is the messaging room's.
import type { Logger } from 'pino';
import type { SignInMethod } from '../../config/sign-in-settings.ts';
import type { MessageKey } from '../../i18n/languages.ts';
import { type Language, translate } from '../../i18n/languages.ts';
import type { Clock } from '../../providers/clock.ts';
import { CHANNELS, type Channel } from '../../providers/messaging/provider.ts';
import type { Random } from '../../providers/random.ts';
import type { Database, Queryable } from '../../storage/db.ts';
import { type NewTempToken, tempTokensRepo } from '../../storage/repositories/temp-tokens.ts';
import { submitCurrentOtp } from '../../storage/rules/otp-codes.ts';
import { consumeTempToken } from '../../storage/rules/temp-tokens.ts';
import { assertPurposeOn } from '../accounts/sign-in-methods.ts';
import { sha256 } from '../crypto.ts';
import { DomainError, fieldError } from '../errors.ts';
import type { Messenger } from '../messaging/messenger.ts';
import type { SendQueue } from '../messaging/send-queue.ts';
import { countryOf, maskPhone } from '../phone.ts';
import type { PhoneRiskService } from '../phone-risk/phone-risk.ts';
import type { PurposeKeys } from '../purpose-keys.ts';
import { AMR } from '../sessions/authentication.ts';
import type { SendProof } from '../sms-defence/person-check.ts';
import type { SendDefence } from '../sms-defence/send-defence.ts';
import {
  afterProof,
  PROVEN_BY_NETWORK,
  TEMP_TOKEN_TTL_SECONDS,
  type TempTokenAnswer,
  tempTokenOf,
} from './proven-step.ts';
import {
  type AccountPurpose,
  forAnAccount,
  type OtpPurpose,
  type PublicPurpose,
  whatGoes,
} from './purposes.ts';
import { codeHash, OTP_TTL_SECONDS, StoredCodes } from './stored-codes.ts';

/** Spec "Limits": 5 verifications per code. */
export const OTP_MAX_ATTEMPTS = 5;

/** D6 with enumeration protection: what the owner of a number that has an account hears instead of a code. */
const TAKEN_NUMBER_NOTICE: Record<Exclude<OtpPurpose, AccountPurpose>, MessageKey> = {
  signup: 'phone.signup_number_taken',
  phone_change: 'phone.phone_change_number_taken',
};

/** How a code is to be sent: the proof of a person, the channel asked for, the language of its text. */
export interface SendOptions {
  proof?: SendProof;
  channel?: Channel;
  language?: Language;
  /** the SMS defence admitted this send already (a silent check's start, fallen back to a code) */
  admitted?: boolean;
}

export interface OtpDeps {
  db: Database;
  clock: Clock;
  random: Random;
  /** carries codes and notices by the configured routes */
  messenger: Messenger;
  /** Fixed codes for configured test numbers (never in production) */
  testPhoneNumbers: ReadonlyMap<string, string>;
  codeKeys: PurposeKeys;
  enumerationProtection: boolean;
  /** the language of a code's text when the caller names none */
  defaultLanguage: Language;
  /** the toll-fraud defence beyond where codes may go: the country breaker, its challenge and its cap */
  defence: SendDefence;
  /** carries the sends that leave the request's path */
  sendQueue: SendQueue;
  /** the ways of signing in that are on: a code to sign in with needs `code`, one to reset the PIN `pin` */
  signInMethods: ReadonlySet<SignInMethod>;
  /** the SIM swap and recycling checks before a code signs in or resets the PIN */
  phoneRisk?: Pick<PhoneRiskService, 'guards' | 'beforeCodeStep' | 'proven'>;
  logger: Logger;
}

export class OtpService {
  readonly #codes: StoredCodes;
  constructor(private readonly d: OtpDeps) {
    this.#codes = new StoredCodes(d);
  }

  /** A new code for a normalised phone; sign-up and a phone change need a number nobody has. */
  async sendCode(
    phone: string,
    purpose: OtpPurpose,
    { proof = {}, channel = 'sms', language = this.d.defaultLanguage, admitted: before }: SendOptions = {},
  ): Promise<{ expires_in: number; message: string; channel: Channel }> {
    assertPurposeOn(this.d.signInMethods, purpose);
    // The channel the code would go by is the answer's also where no code goes, so the answers are alike.
    const planned = this.d.messenger.channelFor(phone, channel);
    const { registered, window } = await this.d.defence.firstReads(phone);
    const goes = whatGoes(purpose, registered, this.d.enumerationProtection);
    // The SMS defence is asked the same for every number, so its refusals do not tell the two apart; a
    // configured test number passes it with its fixed code.
    const fixed = this.d.testPhoneNumbers.get(phone);
    const spend = { spend: goes === 'code' || goes === 'notice' };
    const admitted =
      fixed ??
      (await (before
        ? this.d.defence.admitted(phone, spend)
        : this.d.defence.admit(phone, { ...proof, purpose }, { ...spend, window })));
    const answer = {
      expires_in: OTP_TTL_SECONDS,
      message: `Verification code sent to ${maskPhone(phone)}`,
      channel: planned,
    };
    if (goes === 'refusal') throw codelessRefusal(purpose);
    if (goes === 'decoy' || goes === 'notice') {
      // A decoy longer than any code a verify takes: later verifications count and refuse it as a real code.
      await this.#codes.store(phone, purpose, this.d.random.token(32));
      if (goes === 'notice' && !forAnAccount(purpose)) {
        const notice = translate(language, TAKEN_NUMBER_NOTICE[purpose]);
        await this.#codes.deliver(() => this.d.messenger.sendNotice(phone, notice, language));
      }
      return answer;
    }
    if (typeof admitted === 'string') {
      await this.#codes.store(phone, purpose, admitted);
      return answer;
    }
    const code = await this.#codes.storeCode(phone, purpose, admitted);
    if (goes === 'code_after_answer') {
      this.d.sendQueue.hand(() => this.#codes.spendAndSend(phone, code, { channel, language }));
      return answer;
    }
    const carried = await this.#codes.send(phone, code, { channel, language });
    return { ...answer, channel: carried };
  }

  /** A right code for the phone (E.164) and purpose answers a temp token for the next step. */
  async verify(phone: string, code: string, purpose: PublicPurpose): Promise<TempTokenAnswer> {
    assertPurposeOn(this.d.signInMethods, purpose);
    const step = { phone, purpose };
    // A code that signs in or resets the PIN is checked against the number's SIM first (phone-risk room): the
    // code is used up, then the check, then the token; otherwise the token comes with the code's use, written
    // by the statement that uses it.
    if (this.d.phoneRisk?.guards(purpose)) {
      const refused = await this.submit(this.d.db, phone, purpose, code);
      if (refused) throw refused;
      return afterProof(this.d, this.d.db, step);
    }
    const token = this.d.random.token(32);
    const refused = await this.submit(this.d.db, phone, purpose, code, tempTokenOf(this.d, token, step));
    if (refused) throw refused;
    return { verified: true, temp_token: token, expires_in: TEMP_TOKEN_TTL_SECONDS };
  }

  /** The phone proven by its mobile network for the purpose: as a right code, a temp token for the next step. */
  proveByNetwork(phone: string, purpose: PublicPurpose): Promise<TempTokenAnswer> {
    assertPurposeOn(this.d.signInMethods, purpose);
    return afterProof(this.d, this.d.db, { phone, purpose, provenBy: PROVEN_BY_NETWORK });
  }

  /**
   * One submission of a code against the phone's current one, by one statement (in the caller's transaction,
   * if it has one): a match uses the code up there and then, counts it verified for its country and writes
   * `tempToken` (undefined is answered); otherwise the refusal to throw, the wrong submission counted.
   */
  async submit(
    q: Queryable,
    phone: string,
    purpose: OtpPurpose,
    codeInput: string,
    tempToken?: NewTempToken,
  ): Promise<DomainError | undefined> {
    if (codeInput.length > 32) throw fieldError('INVALID_REQUEST', 'code', 'code must be a string');
    // A code sent before KEY_ENCRYPTION_KEY changed was hashed with the fallback's key.
    const submittedHashes = this.d.codeKeys.all.map((key) => codeHash(phone, purpose, codeInput, key));
    const country = this.d.testPhoneNumbers.has(phone) ? undefined : countryOf(phone);
    const submission = {
      phone,
      purpose,
      submittedHashes,
      maxAttempts: OTP_MAX_ATTEMPTS,
      now: this.d.clock.now(),
    };
    const outcome = await submitCurrentOtp(q, submission, { verifiedIn: country, tempToken });
    switch (outcome.kind) {
      case 'used':
        if (country) this.d.defence.countedVerified(country);
        return undefined;
      case 'expired':
        return fieldError('OTP_EXPIRED', 'code', 'the code has expired; request a new one');
      case 'wrong':
        return fieldError('INVALID_OTP', 'code', 'the code is wrong', {
          attempts_remaining: outcome.attemptsRemaining,
        });
      case 'burnt':
        return new DomainError('RATE_LIMITED', 'too many attempts for this code; request a new one', {
          field: 'code',
          scope: 'otp_attempts',
        });
      case 'none':
      case 'gone':
        return noLongerValid();
    }
  }

  /** A cheap look before the expensive PIN hash; consumeTempToken is the real gate. */
  async assertTempToken(token: string, purpose: OtpPurpose): Promise<void> {
    if (
      typeof token !== 'string' ||
      !(await tempTokensRepo.findUsable(this.d.db, sha256(token), purpose, this.d.clock.now()))
    ) {
      throw invalidTempToken();
    }
  }

  /**
   * Single use, 600 s, bound to its purpose; answers the phone it was issued for, and how its code proved it
   * (RFC 8176 methods, by the channel that carried the code).
   */
  async consumeTempToken(
    tx: Queryable,
    token: string,
    purpose: OtpPurpose,
  ): Promise<{ phone: string; amr: string[] }> {
    const consumed = await consumeTempToken(tx, sha256(token), purpose, this.d.clock.now());
    if (!consumed.consumed) throw invalidTempToken();
    if (consumed.channel === PROVEN_BY_NETWORK) return { phone: consumed.phone, amr: AMR.network };
    const channel = CHANNELS.find((c) => c === consumed.channel);
    return { phone: consumed.phone, amr: AMR.code(channel) };
  }
}

const noLongerValid = () => fieldError('INVALID_OTP', 'code', 'the code is wrong or no longer valid');

const invalidTempToken = () =>
  fieldError('INVALID_TOKEN', 'temp_token', 'temp_token is unknown, used or expired; verify the phone again');

const codelessRefusal = (purpose: OtpPurpose) =>
  forAnAccount(purpose)
    ? fieldError('PHONE_NOT_FOUND', 'phone', 'no account uses this phone number')
    : fieldError('PHONE_EXISTS', 'phone', 'this phone number is already registered');
