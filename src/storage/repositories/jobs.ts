import { maybeOne, type Queryable } from '../db.ts';

export const jobsRepo = {
  /**
   * Claims a due run in one conditional statement: of several instances ticking at once, exactly one
   * moves next_run_at and gets true.
   */
  async claim(q: Queryable, name: string, now: Date, next: Date): Promise<boolean> {
    await q.query('INSERT INTO jobs (name, next_run_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
      name,
      now,
    ]);
    const row = await maybeOne(
      q,
      `UPDATE jobs SET next_run_at = $3, last_started_at = $2, runs = runs + 1
       WHERE name = $1 AND next_run_at <= $2 RETURNING name`,
      [name, now, next],
    );
    return row !== undefined;
  },

  finished: (q: Queryable, name: string, now: Date) =>
    q.query('UPDATE jobs SET last_finished_at = $2 WHERE name = $1', [name, now]),
};
