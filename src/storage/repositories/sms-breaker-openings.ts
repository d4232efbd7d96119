import type { Queryable } from '../db.ts';
import { all, sql } from '../sql.ts';

/** A time a country's breaker was open: from when, until when (null: still open), and whether an operator held it. */
export interface BreakerOpening {
  country: string;
  opened_at: Date;
  closed_at: Date | null;
  by_operator: boolean;
}

export const smsBreakerOpeningsRepo = {
  /** The country's breaker opened at `at`; nothing changes while an opening of it is recorded as open. */
  opened: (q: Queryable, country: string, at: Date, byOperator: boolean) =>
    all(
      q,
      sql`INSERT INTO sms_breaker_openings (country, opened_at, by_operator) VALUES (${country}, ${at}, ${byOperator})
        ON CONFLICT (country) WHERE closed_at IS NULL DO NOTHING`,
    ),

  /** The country's breaker is closed at `at`: its open opening, if any, ends then. */
  closed: (q: Queryable, country: string, at: Date) =>
    all(
      q,
      sql`UPDATE sms_breaker_openings SET closed_at = ${at} WHERE country = ${country} AND closed_at IS NULL`,
    ),

  /** The openings that overlap [from, to], oldest first. */
  between: (q: Queryable, from: Date, to: Date) =>
    all<BreakerOpening>(
      q,
      sql`SELECT country, opened_at, closed_at, by_operator FROM sms_breaker_openings
        WHERE opened_at <= ${to} AND (closed_at IS NULL OR closed_at >= ${from})
        ORDER BY opened_at, country`,
    ),
};
