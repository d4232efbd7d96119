import type { Queryable } from '../db.ts';
import { all, first, sql } from '../sql.ts';

export const jobsRepo = {
  /**
   * Claims a due run in one conditional statement: of several instances ticking at once, exactly one
   * moves next_run_at and gets true.
   */
  async claim(q: Queryable, name: string, now: Date, next: Date): Promise<boolean> {
    await all(
      q,
      sql`INSERT INTO jobs (name, next_run_at) VALUES (${name}, ${now}) ON CONFLICT (name) DO NOTHING`,
    );
    const row = await first(
      q,
      sql`UPDATE jobs SET next_run_at = ${next}, last_started_at = ${now}, runs = runs + 1
       WHERE name = ${name} AND next_run_at <= ${now} RETURNING name`,
    );
    return row !== undefined;
  },

  finished: (q: Queryable, name: string, now: Date) =>
    all(q, sql`UPDATE jobs SET last_finished_at = ${now} WHERE name = ${name}`),
};
