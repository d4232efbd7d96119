// A circuit breaker per destination country, on conversion: honest users enter their codes, pumped codes are
// never entered.
//
// Rules it enforces:
// - Over a sliding window (`window` seconds), per country, codes sent and codes verified are counted.
// - When at least `min_sends` codes went to a country in the window and fewer than `min_conversion` of them
//   were verified, its breaker is open; it closes by itself as soon as the window's conversion is back at
//   or above the threshold. Other countries are not affected.
// - While a country's breaker is open, its sends need a solved challenge (with CHALLENGE_MODE=breaker), and
//   at most `open_cap` codes an hour go there, challenge or not (the limit `otp_send_country_open`).
// - Opening and closing are logged at warn and reported to metrics, once per change seen by this process.
import type { Logger } from 'pino';
import { addSeconds, type Clock } from '../providers/clock.ts';
import type { Database } from '../storage/db.ts';
import { type CountryTotals, smsTrafficRepo } from '../storage/repositories/sms-traffic.ts';

export interface BreakerSettings {
  windowSeconds: number;
  minSends: number;
  minConversion: number;
  openCap: number;
}

export const DEFAULT_BREAKER: BreakerSettings = {
  windowSeconds: 3600,
  minSends: 50,
  minConversion: 0.2,
  openCap: 200,
};

export interface SmsBreakerDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  settings: BreakerSettings;
  /** told of each change of a country's state this process sees */
  onChange?: (country: string, open: boolean) => void;
}

/** Whether these totals open the breaker. */
export const opens = (t: CountryTotals, s: BreakerSettings) =>
  t.sent >= s.minSends && t.verified < s.minConversion * t.sent;

export class SmsBreaker {
  readonly #seenOpen = new Map<string, boolean>();
  constructor(private readonly d: SmsBreakerDeps) {}

  /** Whether the country's breaker is open now. */
  async isOpen(country: string): Promise<boolean> {
    const since = addSeconds(this.d.clock.now(), -this.d.settings.windowSeconds);
    const totals = await smsTrafficRepo.totalsSince(this.d.db, country, since);
    const open = opens(totals, this.d.settings);
    if ((this.#seenOpen.get(country) ?? false) !== open) {
      this.#seenOpen.set(country, open);
      this.d.logger.warn({ country, ...totals, open }, open ? 'SMS breaker opened' : 'SMS breaker closed');
      this.d.onChange?.(country, open);
    }
    return open;
  }

  /** A code went to the country. */
  recordSent(country: string): Promise<unknown> {
    return smsTrafficRepo.countSent(this.d.db, country, this.d.clock.now());
  }
}
