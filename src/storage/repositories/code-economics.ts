import type { Queryable } from '../db.ts';
import { all, type Sql, sql } from '../sql.ts';

/** The figures of an hour (or of any grouping of hours, countries, providers and channels). */
export const ECONOMICS_FIGURES = [
  'sent',
  'delivered',
  'verified',
  'fell_back',
  'refused_country',
  'refused_type',
  'refused_prefix',
  'challenged',
  'over_cap',
  'over_budget',
  'rate_limited',
  'silent_attempted',
  'silent_proven',
] as const;
export type EconomicsFigure = (typeof ECONOMICS_FIGURES)[number];

/** What a report may be grouped by. */
export const ECONOMICS_DIMENSIONS = ['hour', 'day', 'country', 'provider', 'channel'] as const;
export type EconomicsDimension = (typeof ECONOMICS_DIMENSIONS)[number];

export type EconomicsRow = Partial<Record<EconomicsDimension, string>> &
  Record<EconomicsFigure, number> & { cost: number };

const utcHour = (column: Sql) => sql`(date_trunc('hour', ${column} AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;

/** A message some provider took (one no provider carried is recorded too, with its failed attempts). */
const carried = sql`m.attempts @> '[{"ok": true}]'::jsonb`;

/** Each hour's figures in [from, to), from the rows they are made of (kept a day or more). */
function fromSources(from: Date, to: Date): Sql {
  return sql`
    SELECT ${utcHour(sql`m.created_at`)} AS hour, coalesce(m.country, '001') AS country,
      coalesce(m.provider, '') AS provider, m.channel,
      (count(*) FILTER (WHERE ${carried}))::int AS sent,
      (count(*) FILTER (WHERE m.status IN ('delivered', 'read')))::int AS delivered,
      (count(DISTINCT m.otp_id) FILTER (WHERE o.verified_at IS NOT NULL))::int AS verified,
      (count(*) FILTER (WHERE ${carried} AND jsonb_array_length(m.attempts) > 1))::int AS fell_back,
      0 AS refused_country, 0 AS refused_type, 0 AS refused_prefix, 0 AS challenged, 0 AS over_cap,
      0 AS over_budget, 0 AS rate_limited, 0 AS silent_attempted, 0 AS silent_proven,
      coalesce(sum(m.price), 0) AS cost
    FROM messages m LEFT JOIN otps o ON o.id = m.otp_id
    WHERE m.kind = 'code' AND m.created_at >= ${from} AND m.created_at < ${to}
    GROUP BY 1, 2, 3, 4
    UNION ALL
    SELECT ${utcHour(sql`minute`)}, country, '', '', 0, 0, 0, 0,
      sum(refused_country)::int, sum(refused_type)::int, sum(refused_prefix)::int, sum(challenged)::int,
      sum(over_cap)::int, sum(over_budget)::int, sum(rate_limited)::int, 0, 0, 0
    FROM sms_country_minutes WHERE minute >= ${from} AND minute < ${to}
    GROUP BY 1, 2
    HAVING sum(refused_country + refused_type + refused_prefix + challenged + over_cap + over_budget + rate_limited) > 0
    UNION ALL
    SELECT ${utcHour(sql`created_at`)}, coalesce(country, '001'), provider, 'network', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      0, count(*)::int, (count(*) FILTER (WHERE outcome = 'verified'))::int, coalesce(sum(price), 0)
    FROM network_verifications WHERE created_at >= ${from} AND created_at < ${to}
    GROUP BY 1, 2, 3`;
}

export const codeEconomicsRepo = {
  /** The hours of [from, to) rolled up again from their sources: what is there is replaced. */
  rollUp: async (q: Queryable, from: Date, to: Date): Promise<void> => {
    await all(q, sql`DELETE FROM code_economics_hours WHERE hour >= ${from} AND hour < ${to}`);
    await all(
      q,
      sql`INSERT INTO code_economics_hours (hour, country, provider, channel, sent, delivered, verified, fell_back,
          refused_country, refused_type, refused_prefix, challenged, over_cap, over_budget, rate_limited,
          silent_attempted, silent_proven, cost)
        SELECT hour, country, provider, channel, sum(sent), sum(delivered), sum(verified), sum(fell_back),
          sum(refused_country), sum(refused_type), sum(refused_prefix), sum(challenged), sum(over_cap),
          sum(over_budget), sum(rate_limited), sum(silent_attempted), sum(silent_proven), sum(cost)
        FROM (${fromSources(from, to)}) s GROUP BY 1, 2, 3, 4`,
    );
  },

  /**
   * The figures of [from, to) grouped by `dims`: hours before `liveSince` as rolled up, the rest straight from
   * their sources (so the report is right to the minute).
   */
  report: async (
    q: Queryable,
    range: { from: Date; to: Date; liveSince: Date },
    dims: EconomicsDimension[],
  ): Promise<EconomicsRow[]> => {
    const { from, to, liveSince } = range;
    const split = new Date(Math.min(Math.max(liveSince.getTime(), from.getTime()), to.getTime()));
    const keys = dims.map((d) => DIMENSION_SQL[d]);
    const select = keys.length ? sql`${sql.join(keys, ', ')}, ` : sql``;
    const positions = sql.join(
      keys.map((_, i) => sql.constant(String(i + 1))),
      ', ',
    );
    const group = keys.length ? sql`GROUP BY ${positions} ORDER BY ${positions}` : sql``;
    const sums = ECONOMICS_FIGURES.map((f) => sql`sum(${sql.identifier(f)})::int AS ${sql.identifier(f)}`);
    return all<EconomicsRow>(
      q,
      sql`SELECT ${select}${sql.join(sums, ', ')}, coalesce(sum(cost), 0)::float8 AS cost
      FROM (
        SELECT * FROM code_economics_hours WHERE hour >= ${from} AND hour < ${split}
        UNION ALL ${fromSources(split, to)}
      ) e ${group}`,
    );
  },
};

/** How each dimension reads in a report (hours and days as ISO-8601 UTC). */
const DIMENSION_SQL: Record<EconomicsDimension, Sql> = {
  hour: sql`to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24":00:00Z"') AS hour`,
  day: sql`to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day`,
  country: sql`country`,
  provider: sql`provider`,
  channel: sql`channel`,
};
