import { one, type Queryable } from '../db.ts';

export const rateCountersRepo = {
  /** One upsert per hit: a new window restarts the count, so there is one row per key, not per window. */
  hit: async (q: Queryable, key: string, windowStart: Date) =>
    (
      await one<{ count: number }>(
        q,
        `INSERT INTO rate_counters (key, window_start, count) VALUES ($1, $2, 1)
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN rate_counters.window_start = EXCLUDED.window_start THEN rate_counters.count + 1 ELSE 1 END,
           window_start = EXCLUDED.window_start
         RETURNING count`,
        [key, windowStart],
      )
    ).count,
};
