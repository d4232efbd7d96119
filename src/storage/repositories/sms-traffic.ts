import type { Queryable } from '../db.ts';
import { all, first, sql } from '../sql.ts';

/** The minute a moment falls in, as the breaker's window counts. */
const minuteOf = (at: Date) => new Date(Math.floor(at.getTime() / 60_000) * 60_000);

export interface CountryTotals {
  sent: number;
  verified: number;
  /** of `sent`, those an app attested */
  attested: number;
}

/** Why a send was refused, as counted per country. */
export const REFUSALS = {
  country_not_allowed: 'refused_country',
  number_type_not_allowed: 'refused_type',
  prefix: 'refused_prefix',
  challenge: 'challenged',
  over_cap: 'over_cap',
  over_budget: 'over_budget',
  rate_limited: 'rate_limited',
} as const;
export type SendRefusal = keyof typeof REFUSALS;
export type RefusalCounts = Record<SendRefusal, number>;

export type BreakerOverride = 'open' | 'closed';

/** A country's totals over the breaker's window, and the operator's override. */
export type CountryWindow = CountryTotals & { override: BreakerOverride | null };

/** The rest of a SELECT answering a country's window in one aggregate row: its totals from `since` on, its override. */
const windowAggregate = (country: string | null, since: Date) =>
  sql`coalesce(sum(sent), 0)::int AS sent, coalesce(sum(verified), 0)::int AS verified,
    coalesce(sum(attested), 0)::int AS attested,
    (SELECT state FROM sms_breaker_overrides WHERE country = ${country}) AS override
  FROM sms_country_minutes WHERE country = ${country} AND minute >= ${minuteOf(since)}`;

export const smsTrafficRepo = {
  /** The countries codes went to or were entered in from `since` on, with their totals. */
  countriesSince: (q: Queryable, since: Date) =>
    all<CountryTotals & RefusalCounts & { country: string }>(
      q,
      sql`SELECT country, sum(sent)::int AS sent, sum(verified)::int AS verified, sum(attested)::int AS attested,
          sum(refused_country)::int AS country_not_allowed, sum(refused_type)::int AS number_type_not_allowed,
          sum(refused_prefix)::int AS prefix, sum(challenged)::int AS challenge, sum(over_cap)::int AS over_cap,
          sum(over_budget)::int AS over_budget, sum(rate_limited)::int AS rate_limited
        FROM sms_country_minutes WHERE minute >= ${minuteOf(since)} GROUP BY country ORDER BY country`,
    ),

  /** Codes sent and entered, all countries, per hour from `since` on (hours without any left out). */
  hoursSince: (q: Queryable, since: Date) =>
    all<{ hour: Date; sent: number; verified: number }>(
      q,
      sql`SELECT date_trunc('hour', minute AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS hour, sum(sent)::int AS sent, sum(verified)::int AS verified
        FROM sms_country_minutes WHERE minute >= ${since} GROUP BY 1 ORDER BY 1`,
    ),

  overrides: (q: Queryable) =>
    all<{ country: string; state: BreakerOverride }>(
      q,
      sql`SELECT country, state FROM sms_breaker_overrides`,
    ),

  /** An operator's override, or none (`auto`). */
  setOverride: (q: Queryable, country: string, state: BreakerOverride | 'auto', at: Date) =>
    state === 'auto'
      ? all(q, sql`DELETE FROM sms_breaker_overrides WHERE country = ${country}`)
      : all(
          q,
          sql`INSERT INTO sms_breaker_overrides (country, state, set_at) VALUES (${country}, ${state}, ${at})
            ON CONFLICT (country) DO UPDATE SET state = EXCLUDED.state, set_at = EXCLUDED.set_at`,
        ),

  /** The statement that counts one code sent to the country at `at` (done with the code's own). */
  countSent: (country: string, at: Date, attested = false) =>
    sql`INSERT INTO sms_country_minutes (country, minute, sent, attested)
      VALUES (${country}, ${minuteOf(at)}, 1, ${attested ? 1 : 0})
      ON CONFLICT (country, minute) DO UPDATE SET sent = sms_country_minutes.sent + 1,
        attested = sms_country_minutes.attested + EXCLUDED.attested`,

  /** Counts one code sent to the country at `at`, outside a code's own statement (a re-send). */
  addSent: (q: Queryable, country: string, at: Date) => all(q, smsTrafficRepo.countSent(country, at)),

  /** Takes back the count of a code sent at `sentAt` that could not be delivered after all. */
  uncountSent: (q: Queryable, country: string, sentAt: Date, attested = false) =>
    all(
      q,
      sql`UPDATE sms_country_minutes SET sent = greatest(sent - 1, 0),
          attested = greatest(attested - ${attested ? 1 : 0}, 0)
        WHERE country = ${country} AND minute = ${minuteOf(sentAt)}`,
    ),

  /** The statement that counts one code of the country verified at `at`, once for each row of the CTE `used`. */
  countVerifiedOnUse: (country: string, at: Date) =>
    sql`INSERT INTO sms_country_minutes (country, minute, verified)
      SELECT ${country}, ${minuteOf(at)}, 1 FROM used
      ON CONFLICT (country, minute) DO UPDATE SET verified = sms_country_minutes.verified + 1`,

  /** One send to the country refused at `at`, for this reason. */
  countRefused: (q: Queryable, country: string, reason: SendRefusal, at: Date) => {
    const column = sql.identifier(REFUSALS[reason]);
    return all(
      q,
      sql`INSERT INTO sms_country_minutes (country, minute, ${column}) VALUES (${country}, ${minuteOf(at)}, 1)
        ON CONFLICT (country, minute) DO UPDATE SET ${column} = sms_country_minutes.${column} + 1`,
    );
  },

  /** Codes sent to and verified in the country from `since` on, and an operator's override of its breaker. */
  windowOf: async (q: Queryable, country: string, since: Date): Promise<CountryWindow> =>
    (await first<CountryWindow>(q, sql`SELECT ${windowAggregate(country, since)}`)) ?? {
      sent: 0,
      verified: 0,
      attested: 0,
      override: null,
    },

  /**
   * What a code's send reads before anything is spent, in one round trip: whether a live account holds the
   * number (what is sent depends on it), and its country's window as `windowOf` reads it (none without one).
   */
  windowOfNumber: async (
    q: Queryable,
    phone: string,
    country: string | undefined,
    since: Date,
  ): Promise<{ registered: boolean; window: CountryWindow | undefined }> => {
    const row = await first<CountryWindow & { registered: boolean }>(
      q,
      sql`SELECT EXISTS (SELECT 1 FROM users WHERE phone = ${phone} AND deleted_at IS NULL) AS registered,
          ${windowAggregate(country ?? null, since)}`,
    );
    if (!row) throw new Error('an aggregate answers one row');
    const { registered, ...window } = row;
    return { registered, window: country ? window : undefined };
  },
};
