// The network-verification room: a phone number proven silently by its mobile network, before any code. It
// owns starting a check (or falling back to a code where none can be tried), the device's return (and the
// vendor asked at completion where the device does not come back: device-return.ts), and using a check's
// answer once: a temp token as a right code gives, a code sent instead where the network could not say, a
// refusal counted as a wrong code where it named another number. Its counts:
// `callsign_network_verifications_total`, and what operators see (proofs-report.ts). How the network is asked
// is the providers' (providers/network-verification); the code is the codes room's.
import { LANGUAGES } from '../../i18n/languages.ts';
import { addSeconds } from '../../providers/clock.ts';
import {
  NetworkRefusal,
  type NetworkReturn,
  type NetworkVerifier,
} from '../../providers/network-verification/network-verifier.ts';
import type { Random } from '../../providers/random.ts';
import { networkVerificationsRepo } from '../../storage/repositories/network-verifications.ts';
import { usersRepo } from '../../storage/repositories/users.ts';
import { claimReturn, useVerification } from '../../storage/rules/network-verifications.ts';
import { assertPurposeOn } from '../accounts/sign-in-methods.ts';
import type { OtpService, SendOptions } from '../codes/otp.ts';
import type { TempTokenAnswer } from '../codes/proven-step.ts';
import { type PublicPurpose, whatGoes } from '../codes/purposes.ts';
import { countWrongProof } from '../codes/wrong-proof.ts';
import { sha256 } from '../crypto.ts';
import { DomainError, fieldError } from '../errors.ts';
import { countryOf } from '../phone.ts';
import type { SendDefence } from '../sms-defence/send-defence.ts';
import {
  askAtCompletion,
  countCheck,
  type DeviceReturnDeps,
  NETWORK_RETURN_WAIT_SECONDS,
  sealKept,
  settleClaimed,
} from './device-return.ts';

/** A check lives this long from its start, used or not. */
export const NETWORK_VERIFICATION_TTL_SECONDS = 300;

export interface NetworkVerificationDeps extends DeviceReturnDeps {
  random: Random;
  verifier?: NetworkVerifier;
  /** the countries where a check is tried; undefined: every one */
  countries?: ReadonlySet<string>;
  /** checks a UTC day; undefined: no limit */
  dailyLimit?: number;
  /** what a check costs per country (the vendor bills each attempt) */
  prices: Readonly<Record<string, number>>;
  otp: Pick<OtpService, 'sendCode' | 'proveByNetwork'>;
  defence: Pick<SendDefence, 'admit'>;
  signInMethods: Parameters<typeof assertPurposeOn>[0];
  enumerationProtection: boolean;
}

/** Where a check's device comes back (the hosted pages' own callback), and what it carries back to them. */
export interface ReturnTo {
  callbackUrl?: string;
  /** opaque to the check: kept sealed with it, and answered on the device's return */
  carry?: string;
}

export type CodeInstead = { method: 'code' } & Awaited<ReturnType<OtpService['sendCode']>>;
export type NetworkStarted =
  | { method: 'network'; verification_id: string; url: string; expires_in: number }
  | CodeInstead;
export type NetworkCompleted =
  | ({ method: 'network' } & TempTokenAnswer)
  | CodeInstead
  | { method: 'pending'; retry_after_seconds: number };

export class NetworkVerificationService {
  constructor(private readonly d: NetworkVerificationDeps) {}

  /** How the configured vendor's device comes back (undefined: no vendor, every proof is a code). */
  get returns(): NetworkReturn | undefined {
    return this.d.verifier?.returns;
  }

  /** Whether a check can be tried for the number now: a provider, its country, the day's budget. */
  private async canTry(phone: string): Promise<NetworkVerifier | undefined> {
    const { verifier, countries, dailyLimit } = this.d;
    const country = countryOf(phone);
    if (!verifier || (countries && (!country || !countries.has(country)))) return undefined;
    if (dailyLimit === undefined) return verifier;
    const started = await networkVerificationsRepo.startedSince(this.d.db, startOfUtcDay(this.d.clock.now()));
    return started < dailyLimit ? verifier : undefined;
  }

  /**
   * The vendor to ask, once the purpose's way in is on and the SMS defence admitted the send as it would a
   * code's; undefined where no check can be tried, or where a code send would be refused outright (the code
   * send then gives the same refusal).
   */
  private async admitted(phone: string, purpose: PublicPurpose, options: SendOptions) {
    assertPurposeOn(this.d.signInMethods, purpose);
    const verifier = await this.canTry(phone);
    const registered = !!(await usersRepo.findLiveByPhone(this.d.db, phone));
    if (!verifier || whatGoes(purpose, registered, this.d.enumerationProtection) === 'refusal')
      return undefined;
    await this.d.defence.admit(phone, { ...options.proof, purpose }, { spend: false });
    return verifier;
  }

  /**
   * A check of the number for the purpose: where the device must go, or, where none can be tried, the code
   * sent as `/auth/otp/send` sends it. The SMS defence admits it as it would a code.
   */
  async start(
    phone: string,
    purpose: PublicPurpose,
    options: SendOptions = {},
    returnTo: ReturnTo = {},
  ): Promise<NetworkStarted> {
    const verifier = await this.admitted(phone, purpose, options);
    if (!verifier) return this.codeInstead(phone, purpose, options);
    const state = this.d.random.token(32);
    const callbackUrl = returnTo.callbackUrl ?? this.d.callbackUrl;
    let started: Awaited<ReturnType<NetworkVerifier['authorizationUrl']>>;
    try {
      started = await verifier.authorizationUrl(phone, callbackUrl, state);
    } catch (err) {
      countCheck(this.d, verifier.name, phone, err instanceof NetworkRefusal ? err.answer.outcome : 'error');
      return this.codeInstead(phone, purpose, { ...options, admitted: true });
    }
    const now = this.d.clock.now();
    const id = this.d.random.uuid();
    await networkVerificationsRepo.insert(this.d.db, {
      id,
      phone,
      purpose,
      provider: verifier.name,
      country: countryOf(phone) ?? null,
      price: this.d.prices[countryOf(phone) ?? ''] ?? null,
      language: options.language ?? 'en',
      state_hash: sha256(state),
      pending_enc: sealKept(this.d, { vendor: started.pending, callbackUrl, carry: returnTo.carry }),
      created_at: now,
      expires_at: addSeconds(now, NETWORK_VERIFICATION_TTL_SECONDS),
    });
    return {
      method: 'network',
      verification_id: id,
      url: started.url,
      expires_in: NETWORK_VERIFICATION_TTL_SECONDS,
    };
  }

  /**
   * The device came back to the callback with what the operator gave it: the check is finished once. Answers
   * the check's id, language and outcome, and what its start carried; undefined for a state that is unknown,
   * used or expired.
   */
  async returned(state: string, callback: Record<string, string>) {
    const { verifier } = this.d;
    const row = verifier && (await claimReturn(this.d.db, sha256(state), this.d.clock.now()));
    if (!verifier || !row) return undefined;
    const { answer, carry } = await settleClaimed(this.d, verifier, row, callback);
    return { id: row.id, language: row.language, outcome: answer?.outcome ?? 'unavailable', carry };
  }

  /**
   * The check's answer, used once: a temp token where the network proved the number, a code sent where it
   * could not say, INVALID_CREDENTIALS where it named another number; `pending` while the device is not back
   * and the network still has time. Where the device does not come back to Callsign, the vendor is asked now;
   * an app may bring what the device came back with (`returned`).
   */
  async complete(
    id: string,
    options: SendOptions = {},
    returned?: Record<string, string>,
  ): Promise<NetworkCompleted> {
    const { verifier } = this.d;
    if (verifier && (verifier.returns === 'none' || returned))
      await askAtCompletion(this.d, verifier, id, returned ?? {});
    const now = this.d.clock.now();
    const row = await useVerification(this.d.db, id, now, addSeconds(now, -NETWORK_RETURN_WAIT_SECONDS));
    if (!row) {
      const waiting = await networkVerificationsRepo.byId(this.d.db, id);
      if (waiting && !waiting.used_at && waiting.expires_at > now)
        return { method: 'pending', retry_after_seconds: 1 };
      throw fieldError(
        'INVALID_TOKEN',
        'verification_id',
        'verification_id is unknown, used or expired; start again',
      );
    }
    const purpose = row.purpose as PublicPurpose;
    const language = options.language ?? LANGUAGES.find((l) => l === row.language);
    const fallBack: SendOptions = { ...options, language, admitted: true };
    if (row.outcome === 'other_number') throw await this.anotherNumber(row.phone, purpose);
    if (row.outcome !== 'verified') return this.codeInstead(row.phone, purpose, fallBack);
    return this.proven(row.phone, purpose, fallBack);
  }

  /** An app's operator token (GSMA TS.43) proves the number at once, or a code goes instead. */
  async verifyOperatorToken(
    phone: string,
    purpose: PublicPurpose,
    operatorToken: string,
    options: SendOptions = {},
  ): Promise<Exclude<NetworkCompleted, { method: 'pending' }>> {
    const verifier = await this.admitted(phone, purpose, options);
    if (!verifier) return this.codeInstead(phone, purpose, options);
    const answer = await verifier.verifyOperatorToken(phone, operatorToken);
    countCheck(this.d, verifier.name, phone, answer.outcome);
    const admitted = { ...options, admitted: true };
    if (answer.outcome === 'other_number') throw await this.anotherNumber(phone, purpose);
    if (answer.outcome !== 'verified') return this.codeInstead(phone, purpose, admitted);
    return this.proven(phone, purpose, admitted);
  }

  /**
   * The number is proven: the next step's temp token. Where a code would not go (a sign-up of a number that
   * has an account, under enumeration protection), what a code send does there is done instead.
   */
  private async proven(phone: string, purpose: PublicPurpose, options: SendOptions) {
    const registered = !!(await usersRepo.findLiveByPhone(this.d.db, phone));
    const goes = whatGoes(purpose, registered, this.d.enumerationProtection);
    if (goes !== 'code' && goes !== 'code_after_answer') return this.codeInstead(phone, purpose, options);
    return { method: 'network' as const, ...(await this.d.otp.proveByNetwork(phone, purpose)) };
  }

  /** The network named another number: counted as a wrong code, and refused as one. */
  private async anotherNumber(phone: string, purpose: PublicPurpose) {
    await countWrongProof(this.d, phone, purpose);
    return new DomainError('INVALID_CREDENTIALS', 'the mobile network says this device holds another number');
  }

  private async codeInstead(
    phone: string,
    purpose: PublicPurpose,
    options: SendOptions,
  ): Promise<CodeInstead> {
    return { method: 'code', ...(await this.d.otp.sendCode(phone, purpose, options)) };
  }
}

const startOfUtcDay = (now: Date) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
