import { addSeconds } from '../providers/clock.ts';
import type { Database } from '../storage/db.ts';
import type { Job } from './runner.ts';

/** Rows that can no longer matter, a day past their end: spent codes, dead tokens, old rate windows. */
export function housekeeping(db: Database): Job {
  return {
    name: 'housekeeping',
    everySeconds: 3600,
    async run(now) {
      const cutoff = addSeconds(now, -24 * 3600);
      const counts: Record<string, number> = {};
      for (const [table, column] of [
        ['otps', 'expires_at'],
        ['temp_tokens', 'expires_at'],
        ['refresh_tokens', 'expires_at'],
        ['rate_counters', 'window_start'],
      ]) {
        counts[table] = (
          await db.query(`DELETE FROM ${table} WHERE ${column} < $1 RETURNING 1`, [cutoff])
        ).length;
      }
      return counts;
    },
  };
}
