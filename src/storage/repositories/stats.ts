import type { Queryable } from '../db.ts';
import { liveSession } from './sessions.ts';

/**
 * Counts per hour over the `hours` before `end`, oldest first (bucket 0 ends `hours` - 1 hours before
 * `end`). `source` is a FROM clause whose rows have `at`; `$1` is `end`, `$2` the hours.
 */
async function hourly(q: Queryable, source: string, end: Date, hours: number, params: unknown[] = []) {
  const rows = await q.query<{ ago: number; n: number }>(
    `SELECT floor(extract(epoch FROM ($1::timestamptz - at)) / 3600)::int AS ago, count(*)::int AS n
       FROM (${source}) s
      WHERE at > $1::timestamptz - make_interval(hours => $2) AND at <= $1::timestamptz
      GROUP BY ago`,
    [end, hours, ...params],
  );
  const series = new Array<number>(hours).fill(0);
  for (const r of rows) series[hours - 1 - r.ago] = r.n;
  return series;
}

export const statsRepo = {
  eventsPerHour: (q: Queryable, type: string, end: Date, hours: number) =>
    hourly(q, 'SELECT created_at AS at FROM outbox_events WHERE type = $3', end, hours, [type]),

  otpSendsPerHour: (q: Queryable, end: Date, hours: number) =>
    hourly(q, 'SELECT created_at AS at FROM otps', end, hours),

  webhookFailuresPerHour: (q: Queryable, end: Date, hours: number) =>
    hourly(q, 'SELECT started_at AS at FROM webhook_attempts WHERE error IS NOT NULL', end, hours),

  /** Live as GET /sessions counts them. */
  activeSessions: async (q: Queryable, now: Date) =>
    (
      await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM sessions WHERE ${liveSession('$1')}`, [
        now,
      ])
    )[0].n,
};
