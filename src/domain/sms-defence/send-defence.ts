// The SMS defence room: what stands between a request and a paid message. It owns where codes may go, the
// block and country limits, the per-country breaker and its ledger of codes sent, taken back and entered, the
// proof of a person (proof-of-work challenge or hosted CAPTCHA), and the day's budget. This file is its entry:
// a code's send asks it once before (`admit`) and tells the pass it answers once after (`sent` or `unsent`);
// a code entered is told with `verified`. Nothing else writes the ledger.
//
// What a code's send must pass: its request's limits (send-limits.ts), where it may go, the country's
// breaker, the challenge it asks for, the cap on codes to a country whose breaker is open, and the day's
// budget. Each refusal is counted per country, for the operators.
//
// Rules it enforces:
// - Where codes may go: destinations.ts.
// - At most `otp_send_prefix` (10) requests for codes an hour count against one block of 1,000 consecutive
//   numbers: past it, RATE_LIMITED. The request's own limits count it (send-limits.ts), with the others.
// - CHALLENGE_MODE=always: every send needs a solved challenge; `breaker` (the default): a send to a country
//   whose breaker is open does; `off`: none does.
// - While a country's breaker is open, at most `open_cap` codes an hour go there, challenge or not: past it,
//   RATE_LIMITED with `details.scope: "country"`.
// - A number with no country counts under `001`, like a country of its own (destinations.ts).
// - With SMS_DAILY_LIMIT, at most that many text messages go a UTC day across all countries: past it,
//   RATE_LIMITED with `details.scope: "daily_limit"` and Retry-After to the next UTC midnight; the operator is
//   told by an error log line when 80% and when all of it is spent.
// - A re-send of a code whose delivery failed spends the day's budget and counts for the country's breaker
//   like a first send; it is skipped (and the reason recorded) while the country's breaker is open or once the
//   budget is spent, since an attacker aiming codes at unreachable numbers would otherwise double the spend.
// - A send refused by a limit on codes before it reached the defence is counted per country too, so the
//   operators see every refused send in one place: its block's limit as `prefix`, the others as `rate_limited`.

import type { Logger } from 'pino';
import type { ChallengeMode, DestinationPolicy } from '../../config/sms-defence-settings.ts';
import type { Queryable } from '../../storage/db.ts';
import { type CountryWindow, REFUSALS, type SendRefusal } from '../../storage/repositories/sms-traffic.ts';
import type { Count } from '../counts.ts';
import { DomainError } from '../errors.ts';
import { countryOf } from '../phone.ts';
import type { RateLimiter } from '../rate-limiter.ts';
import { attestedSend, personCheckNeeded, type SendAttestation } from './attested-send.ts';
import type { SmsBreaker } from './breaker.ts';
import { destinationError, destinationRefusal } from './destinations.ts';
import type { PersonCheck, SendProof } from './person-check.ts';

/** The limits on codes a request counts against before the defence is asked, and the refusal each counts as. */
const CODE_LIMIT_REFUSALS = new Map<unknown, SendRefusal>([
  ['otp_send_phone', 'rate_limited'],
  ['otp_send_address', 'rate_limited'],
  ['otp_send_prefix', 'prefix'],
]);

/** Why a failed code's re-send was not made. */
export type ResendRefusal = 'daily_limit' | 'country_breaker' | 'no_route';

export interface SendDefenceDeps {
  breaker: SmsBreaker;
  /** the proof of a person a send may need: the proof-of-work challenge, or a hosted CAPTCHA */
  challenges: PersonCheck;
  /** an app's attestation, which stands in for the proof of a person */
  attestation?: SendAttestation;
  rateLimiter: RateLimiter;
  challengeMode: ChallengeMode;
  /** where codes may go */
  destinations: DestinationPolicy;
  /** SMS_DAILY_LIMIT; undefined, no budget */
  dailyLimit: number | undefined;
  logger: Logger;
  /** each send's outcome, by country and whether an app attested it */
  sends?: Count<'country' | 'outcome' | 'attested'>;
  /** each code entered, by country */
  verifications?: Count<'country'>;
}

/**
 * A send the defence let through, and what the codes room tells it after: its code's count as sent (none for a
 * number libphonenumber cannot read), the budget of a send made later, and whether the code went.
 */
export interface SendPass {
  /** the country the code counts as sent to (none for a number libphonenumber cannot read), counted as it is stored */
  readonly country: string | undefined;
  /** an app attested the send: counted apart, so a pumping wave shows as unattested traffic */
  readonly attested: boolean;
  /** spends the day's budget for a message sent after the request was answered */
  spend(): Promise<void>;
  /** the code went: counted for the metrics */
  sent(): void;
  /** the code counted as sent at `sentAt` did not go: its count for the breaker is taken back */
  unsent(q: Queryable, sentAt: Date): Promise<void>;
}

/** A send's outcome as the metrics count it: sent, or the reason it was refused (as operators see it counted). */
export type SendOutcome = 'sent' | (typeof REFUSALS)[SendRefusal];

export class SendDefence {
  constructor(private readonly d: SendDefenceDeps) {}

  /**
   * Before a send: throws INVALID_PHONE, CHALLENGE_REQUIRED or RATE_LIMITED when a code may not go to this
   * E.164 number, and uses up the proof given; with `spend`, a message goes now and spends the day's budget.
   * Answers the pass the send's code is stored and counted with.
   */
  async admit(
    phone: string,
    proof: SendProof,
    { spend, window }: { spend: boolean; window?: CountryWindow },
  ): Promise<SendPass> {
    const attested = await this.check(phone, proof, window);
    if (spend) await this.spend(phone);
    return this.passFor(phone, attested);
  }

  /**
   * A send the defence admitted already, at the start of a silent check that fell back to a code: not checked
   * (nor challenged) again; with `spend`, the day's budget is spent.
   */
  async admitted(phone: string, { spend }: { spend: boolean }): Promise<SendPass> {
    if (spend) await this.spend(phone);
    return this.passFor(phone, false);
  }

  /**
   * A send's first reads, in one round trip: the breaker's window of the number's country (for `admit`) and
   * whether a live account holds the number (what is sent depends on it).
   */
  firstReads(phone: string): Promise<{ registered: boolean; window: CountryWindow | undefined }> {
    return this.d.breaker.windowWithHolder(phone, countryOf(phone));
  }

  /** What the codes room tells of a send the defence let through, bound to its number's country. */
  private passFor(phone: string, attested: boolean): SendPass {
    const country = countryOf(phone);
    return {
      country,
      attested,
      spend: () => this.spend(phone),
      sent: () => {
        if (country) this.d.sends?.inc({ country, outcome: 'sent', attested: String(attested) });
      },
      unsent: async (q, sentAt) => {
        if (country) await this.d.breaker.uncountSent(q, country, sentAt, attested);
      },
    };
  }

  /**
   * Where the code may go, the app's attestation or the country's breaker and its challenge, and its cap.
   * Answers whether an app attested the send.
   */
  private async check(phone: string, proof: SendProof, window: CountryWindow | undefined): Promise<boolean> {
    const country = countryOf(phone);
    let attested = false;
    /** Counts the refusal for the operators, then throws it. */
    const refused = async (reason: SendRefusal, err: unknown): Promise<never> => {
      if (country) {
        this.d.sends?.inc({ country, outcome: REFUSALS[reason], attested: String(attested) });
        await this.d.breaker.refused(country, reason);
      }
      throw err;
    };
    const destination = destinationRefusal(phone, this.d.destinations);
    if (destination) await refused(destination, destinationError(destination));
    attested = await attestedSend(this.d.attestation, phone, proof).catch((err: unknown) =>
      refused('challenge', err),
    );
    const open = country ? await this.d.breaker.isOpen(country, window) : false;
    const { challengeMode, attestation } = this.d;
    if (personCheckNeeded({ attested, mode: attestation?.mode, challengeMode, breakerOpen: open }))
      await this.d.challenges.redeem(proof).catch((err: unknown) => refused('challenge', err));
    if (!open || !country) return attested;
    const { exceeded } = await this.d.rateLimiter.hit([['otp_send_country_open', country]]);
    if (exceeded) {
      exceeded.details.scope = 'country';
      await refused('over_cap', exceeded);
    }
    return attested;
  }

  /** One text message of the day's budget, before it is sent; RATE_LIMITED past the budget. */
  async spend(phone: string): Promise<void> {
    const limit = this.d.dailyLimit;
    if (!limit) return;
    const { state, exceeded } = await this.d.rateLimiter.hit([['sms_daily', 'all']]);
    const spent = limit - state.remaining;
    if (spent === Math.ceil(limit * 0.8) && spent < limit)
      this.d.logger.error({ spent, limit }, 'SMS daily budget: 80% spent');
    if (spent === limit && !exceeded) this.d.logger.error({ spent, limit }, 'SMS daily budget: all spent');
    if (exceeded) {
      exceeded.details.scope = 'daily_limit';
      const country = countryOf(phone);
      if (country) {
        this.d.sends?.inc({ country, outcome: 'over_budget', attested: 'false' });
        await this.d.breaker.refused(country, 'over_budget');
      }
      throw exceeded;
    }
  }

  /**
   * Whether the re-send of a failed code may go: undefined when it may (the day's budget is spent for it),
   * else why not. A re-send is never challenged: no person is there to solve it.
   */
  async admitResend(phone: string): Promise<ResendRefusal | undefined> {
    const country = countryOf(phone);
    if (country && (await this.d.breaker.isOpen(country))) return 'country_breaker';
    try {
      await this.spend(phone);
    } catch (err) {
      if (err instanceof DomainError && err.code === 'RATE_LIMITED') return 'daily_limit';
      throw err;
    }
    return undefined;
  }

  /** A re-send went: counted as sent for the country's breaker and the metrics. */
  async resent(phone: string): Promise<void> {
    const country = countryOf(phone);
    if (!country) return;
    await this.d.breaker.sent(country);
    this.d.sends?.inc({ country, outcome: 'sent', attested: 'false' });
  }

  /**
   * A code's send the request's own limits refused (`refusal`, before `admit`): counted for the number's
   * country when it is a limit on codes and the number has one; any other refusal counts nothing here.
   */
  async rateLimited(refusal: unknown, phone: string | undefined): Promise<void> {
    const scope =
      refusal instanceof DomainError && refusal.code === 'RATE_LIMITED' ? refusal.details.scope : '';
    const reason = CODE_LIMIT_REFUSALS.get(scope);
    if (!phone || !reason) return;
    const country = countryOf(phone);
    if (!country) return;
    this.d.sends?.inc({ country, outcome: REFUSALS[reason], attested: 'false' });
    await this.d.breaker.refused(country, reason);
  }

  /** A code of the country verified (its statement counted it): the metric follows. */
  countedVerified(country: string): void {
    this.d.verifications?.inc({ country });
  }
}
