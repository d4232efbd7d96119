// A rate limit's counter in the database (the store every instance shares when no Redis is configured).
//
// Rules it enforces:
// - Hits are added atomically, and the count after them is answered in the same statement, so instances
//   sharing the database never both see room under a limit that only one of them had.
// - One row per key, not per window: a hit of a newer window restarts the count.
// - A late hit of an older window (from an instance whose clock is behind, or one that waited) is counted in
//   the row's newer window rather than restarting it, so it can only make the limit stricter.
import type { Queryable } from '../db.ts';
import { first, sql } from '../sql.ts';

/** Adds `hits` to the counter of `key` in the window starting at `windowStart`; answers its count after. */
export async function addRateHits(
  q: Queryable,
  key: string,
  windowStart: Date,
  hits: number,
): Promise<number> {
  const row = await first<{ count: number }>(
    q,
    sql`INSERT INTO rate_counters (key, window_start, count) VALUES (${key}, ${windowStart}, ${hits})
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN rate_counters.window_start >= EXCLUDED.window_start
          THEN rate_counters.count + EXCLUDED.count ELSE EXCLUDED.count END,
        window_start = GREATEST(rate_counters.window_start, EXCLUDED.window_start)
      RETURNING count`,
  );
  if (!row) throw new Error('the rate counter upsert answered no row');
  return row.count;
}
