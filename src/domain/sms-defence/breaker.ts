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
// - An operator may hold a country's breaker open or closed whatever the traffic says, until set back to
//   `auto`.
// - Opening and closing are logged at warn and reported to metrics, once per change seen by this process.
// - Each opening is recorded with when it closed, once across processes (one open opening per country), for
//   the console's charts; a process's first look at a closed country ends an opening left open.
import type { Logger } from 'pino';
import type { BreakerSettings } from '../../config/sms-defence-settings.ts';
import { addSeconds, type Clock } from '../../providers/clock.ts';
import type { Database, Queryable } from '../../storage/db.ts';
import {
  type BreakerOpening,
  smsBreakerOpeningsRepo,
} from '../../storage/repositories/sms-breaker-openings.ts';
import {
  type CountryTotals,
  type CountryWindow,
  type RefusalCounts,
  type SendRefusal,
  smsTrafficRepo,
} from '../../storage/repositories/sms-traffic.ts';
import type { Level } from '../counts.ts';

type TrafficOfPeriod = CountryTotals & { conversion: number | null; refused: RefusalCounts };

export interface CountryTraffic {
  country: string;
  last_hour: TrafficOfPeriod;
  last_24h: TrafficOfPeriod;
  breaker: 'open' | 'closed';
  override: 'open' | 'closed' | null;
}

const NO_REFUSALS: RefusalCounts = {
  country_not_allowed: 0,
  number_type_not_allowed: 0,
  prefix: 0,
  challenge: 0,
  over_cap: 0,
  over_budget: 0,
  rate_limited: 0,
};

/** A period's totals as operators read them: the conversion, and the refusals by reason. */
const withConversion = (t: CountryTotals & Partial<RefusalCounts>): TrafficOfPeriod => ({
  sent: t.sent,
  verified: t.verified,
  attested: t.attested,
  conversion: t.sent ? t.verified / t.sent : null,
  refused: Object.fromEntries(
    Object.keys(NO_REFUSALS).map((reason) => [reason, t[reason as keyof RefusalCounts] ?? 0]),
  ) as RefusalCounts,
});

export interface SmsBreakerDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  settings: BreakerSettings;
  /** each country's state as this process last saw it: 1 open, 0 closed */
  openCountries?: Level<'country'>;
}

/** Whether these totals open the breaker. */
export const opens = (t: CountryTotals, s: BreakerSettings) =>
  t.sent >= s.minSends && t.verified < s.minConversion * t.sent;

export class SmsBreaker {
  readonly #seenOpen = new Map<string, boolean>();
  constructor(private readonly d: SmsBreakerDeps) {}

  /** Where the window ending now starts. */
  private windowStart(): Date {
    return addSeconds(this.d.clock.now(), -this.d.settings.windowSeconds);
  }

  /**
   * The window of the number's country (none without one) read with whether a live account holds the number,
   * in one round trip: a code's send needs both first.
   */
  windowWithHolder(phone: string, country: string | undefined) {
    return smsTrafficRepo.windowOfNumber(this.d.db, phone, country, this.windowStart());
  }

  /** Whether the country's breaker is open now; `read` is its window as read just now, if it was. */
  async isOpen(country: string, read?: CountryWindow): Promise<boolean> {
    const window = read ?? (await smsTrafficRepo.windowOf(this.d.db, country, this.windowStart()));
    const { override, ...totals } = window;
    const open = override ? override === 'open' : opens(totals, this.d.settings);
    const seen = this.#seenOpen.get(country);
    if (seen === open) return open;
    this.#seenOpen.set(country, open);
    const now = this.d.clock.now();
    await (open
      ? smsBreakerOpeningsRepo.opened(this.d.db, country, now, override === 'open')
      : smsBreakerOpeningsRepo.closed(this.d.db, country, now));
    if ((seen ?? false) !== open) {
      this.d.logger.warn({ country, ...totals, open }, open ? 'SMS breaker opened' : 'SMS breaker closed');
      this.d.openCountries?.set({ country }, open ? 1 : 0);
    }
    return open;
  }

  /** When breakers were open between `from` and `to` (the 7 days to now unless given), oldest first. */
  openings(span: { from?: Date; to?: Date }): Promise<BreakerOpening[]> {
    const to = span.to ?? this.d.clock.now();
    const from = span.from ?? addSeconds(to, -7 * 86_400);
    return smsBreakerOpeningsRepo.between(this.d.db, from, to);
  }

  /** What operators see per country: the last hour's and day's traffic, the breaker and its override. */
  async countries(): Promise<CountryTraffic[]> {
    const now = this.d.clock.now();
    const [window, hour, day, overrides] = await Promise.all([
      smsTrafficRepo.countriesSince(this.d.db, addSeconds(now, -this.d.settings.windowSeconds)),
      smsTrafficRepo.countriesSince(this.d.db, addSeconds(now, -3600)),
      smsTrafficRepo.countriesSince(this.d.db, addSeconds(now, -86_400)),
      smsTrafficRepo.overrides(this.d.db),
    ]);
    const overrideOf = new Map(overrides.map((o) => [o.country, o.state]));
    const totalsOf = (rows: Array<CountryTotals & RefusalCounts & { country: string }>, country: string) =>
      rows.find((r) => r.country === country) ?? { sent: 0, verified: 0, attested: 0, ...NO_REFUSALS };
    const countries = [...new Set([...day.map((r) => r.country), ...overrideOf.keys()])].sort();
    return countries.map((country) => {
      const override = overrideOf.get(country) ?? null;
      const open = override ? override === 'open' : opens(totalsOf(window, country), this.d.settings);
      return {
        country,
        last_hour: withConversion(totalsOf(hour, country)),
        last_24h: withConversion(totalsOf(day, country)),
        breaker: open ? 'open' : 'closed',
        override,
      };
    });
  }

  /** Codes sent and entered, all countries, per hour over the last `hours`, oldest first. */
  async hours(hours = 24): Promise<{ end: string; sent: number[]; verified: number[] }> {
    const end = Math.ceil(this.d.clock.now().getTime() / 3_600_000) * 3_600_000;
    const start = end - hours * 3_600_000;
    const rows = await smsTrafficRepo.hoursSince(this.d.db, new Date(start));
    const sent = new Array<number>(hours).fill(0);
    const verified = new Array<number>(hours).fill(0);
    for (const row of rows) {
      const i = Math.floor((new Date(row.hour).getTime() - start) / 3_600_000);
      if (i >= 0 && i < hours) [sent[i], verified[i]] = [row.sent, row.verified];
    }
    return { end: new Date(end).toISOString(), sent, verified };
  }

  /** An operator's override of the country's breaker (`auto`: the traffic decides again). */
  async override(country: string, state: 'open' | 'closed' | 'auto'): Promise<void> {
    await smsTrafficRepo.setOverride(this.d.db, country, state, this.d.clock.now());
  }

  /** A code went to the country outside a code's own send (a re-send): it counts as sent there. */
  sent(country: string): Promise<unknown> {
    return smsTrafficRepo.addSent(this.d.db, country, this.d.clock.now());
  }

  /** A code counted as sent at `sentAt` (attested or not) was not delivered: its count is taken back. */
  uncountSent(q: Queryable, country: string, sentAt: Date, attested = false): Promise<unknown> {
    return smsTrafficRepo.uncountSent(q, country, sentAt, attested);
  }

  /** A send to the country was refused, for this reason. */
  refused(country: string, reason: SendRefusal): Promise<unknown> {
    return smsTrafficRepo.countRefused(this.d.db, country, reason, this.d.clock.now());
  }
}
