// What a code's send must pass beyond where it may go: the country's breaker, the challenge it asks for,
// and the cap on codes to a country whose breaker is open.
//
// Rules it enforces:
// - CHALLENGE_MODE=always: every send needs a solved challenge; `breaker` (the default): a send to a country
//   whose breaker is open does; `off`: none does.
// - While a country's breaker is open, at most `open_cap` codes an hour go there, challenge or not: past it,
//   RATE_LIMITED with `details.scope: "country"`.
// - A number with no country passes the breaker (there is no country to count it against).

import type { ChallengeService } from './challenges.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { SmsBreaker } from './sms-breaker.ts';

export type ChallengeMode = 'off' | 'breaker' | 'always';

export interface SendDefenceDeps {
  breaker: SmsBreaker;
  challenges: ChallengeService;
  rateLimiter: RateLimiter;
  challengeMode: ChallengeMode;
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

  /** A code went to the country. */
  sent(country: string): Promise<unknown> {
    return this.d.breaker.recordSent(country);
  }
}
