import { one, type Queryable } from '../db.ts';

export const rateCountersRepo = {
  /**
   * One upsert per batch of hits (P91); one row per key, not per window: a new window restarts the count. A
   * late hit of an older window (from an instance whose clock is behind, or one that waited) is counted in
   * the row's newer window rather than restarting it, so it can only make the limit stricter (P92).
   */
  add: async (q: Queryable, key: string, windowStart: Date, hits: number) =>
    (
      await one<{ count: number }>(
        q,
        `INSERT INTO rate_counters (key, window_start, count) VALUES ($1, $2, $3)
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN rate_counters.window_start >= EXCLUDED.window_start
             THEN rate_counters.count + EXCLUDED.count ELSE EXCLUDED.count END,
           window_start = GREATEST(rate_counters.window_start, EXCLUDED.window_start)
         RETURNING count`,
        [key, windowStart, hits],
      )
    ).count,
};
