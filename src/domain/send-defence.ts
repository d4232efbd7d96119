// What a code's send must pass beyond where it may go: the country's breaker, the challenge it asks for,
// and the cap on codes to a country whose breaker is open.
//
// Rules it enforces:
// - CHALLENGE_MODE=always: every send needs a solved challenge; `breaker` (the default): a send to a country
//   whose breaker is open does; `off`: none does.
// - While a country's breaker is open, at most `open_cap` codes an hour go there, challenge or not: past it,
//   RATE_LIMITED with `details.scope: "country"`.
// - A number with no country passes the breaker (there is no country to count it against).
// - With SMS_DAILY_LIMIT, at most that many text messages go a UTC day across all countries: past it,
//   RATE_LIMITED with `details.scope: "daily_limit"` and Retry-After to the next UTC midnight; the operator is
//   told by an error log line when 80% and when all of it is spent.

import type { Logger } from 'pino';
import type { ChallengeService } from './challenges.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { SmsBreaker } from './sms-breaker.ts';

export type ChallengeMode = 'off' | 'breaker' | 'always';

export interface SendDefenceDeps {
  breaker: SmsBreaker;
  challenges: ChallengeService;
  rateLimiter: RateLimiter;
  challengeMode: ChallengeMode;
  /** SMS_DAILY_LIMIT; undefined, no budget */
  dailyLimit: number | undefined;
  logger: Logger;
}

export class SendDefence {
  constructor(private readonly d: SendDefenceDeps) {}

  /** Throws CHALLENGE_REQUIRED or RATE_LIMITED when this send may not go; uses up the solution given. */
  async admit(country: string | undefined, challengeSolution: string | undefined): Promise<void> {
    const open = country ? await this.d.breaker.isOpen(country) : false;
    if (this.d.challengeMode === 'always' || (this.d.challengeMode === 'breaker' && open))
      await this.d.challenges.redeem(challengeSolution);
    if (!open || !country) return;
    const { exceeded } = await this.d.rateLimiter.hit([['otp_send_country_open', country]]);
    if (exceeded) {
      exceeded.details.scope = 'country';
      throw exceeded;
    }
  }

  /** One text message of the day's budget, before it is sent; RATE_LIMITED past the budget. */
  async spend(): Promise<void> {
    const limit = this.d.dailyLimit;
    if (!limit) return;
    const { state, exceeded } = await this.d.rateLimiter.hit([['sms_daily', 'all']]);
    const spent = limit - state.remaining;
    if (spent === Math.ceil(limit * 0.8) && spent < limit)
      this.d.logger.error({ spent, limit }, 'SMS daily budget: 80% spent');
    if (spent === limit && !exceeded) this.d.logger.error({ spent, limit }, 'SMS daily budget: all spent');
    if (exceeded) {
      exceeded.details.scope = 'daily_limit';
      throw exceeded;
    }
  }

  /** A code went to the country. */
  sent(country: string): Promise<unknown> {
    return this.d.breaker.recordSent(country);
  }
}
