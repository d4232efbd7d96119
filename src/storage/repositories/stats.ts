import type { Queryable } from '../db.ts';
import { all, type Sql, sql } from '../sql.ts';
import { liveSession } from './sessions.ts';

/**
 * Counts per hour over the `hours` before `end`, oldest first (bucket 0 ends `hours` - 1 hours before
 * `end`). `source` is a statement whose rows have `at`.
 */
async function hourly(q: Queryable, source: Sql, end: Date, hours: number) {
  const rows = await all<{ ago: number; n: number }>(
    q,
    sql`SELECT floor(extract(epoch FROM (${end}::timestamptz - at)) / 3600)::int AS ago, count(*)::int AS n
       FROM (${source}) s
      WHERE at > ${end}::timestamptz - make_interval(hours => ${hours}) AND at <= ${end}::timestamptz
      GROUP BY ago`,
  );
  const series = new Array<number>(hours).fill(0);
  for (const r of rows) series[hours - 1 - r.ago] = r.n;
  return series;
}

export const statsRepo = {
  eventsPerHour: (q: Queryable, type: string, end: Date, hours: number) =>
    hourly(q, sql`SELECT created_at AS at FROM outbox_events WHERE type = ${type}`, end, hours),

  otpSendsPerHour: (q: Queryable, end: Date, hours: number) =>
    hourly(q, sql`SELECT created_at AS at FROM otps`, end, hours),

  webhookFailuresPerHour: (q: Queryable, end: Date, hours: number) =>
    hourly(q, sql`SELECT started_at AS at FROM webhook_attempts WHERE error IS NOT NULL`, end, hours),

  /**
   * Live sessions as GET /sessions counts them. Past `exactUpTo` sessions (by the table's statistics) the
   * count is estimated from a sample of `samplePercent` of its pages: an exact count would read every session
   * for a figure an operator reads at a glance.
   */
  activeSessions: (
    q: Queryable,
    now: Date,
    exactUpTo = EXACT_SESSION_COUNT_UP_TO,
    samplePercent = SESSION_SAMPLE_PERCENT,
  ) => countOrEstimate(q, { table: 'sessions', where: liveSession(now) }, exactUpTo, samplePercent),

  /** Live accounts: counted one by one up to `exactUpTo` rows, above that sampled as sessions are. */
  liveAccounts: (
    q: Queryable,
    exactUpTo = EXACT_SESSION_COUNT_UP_TO,
    samplePercent = SESSION_SAMPLE_PERCENT,
  ) => countOrEstimate(q, { table: 'users', where: sql`deleted_at IS NULL` }, exactUpTo, samplePercent),
};

/** Sessions counted one by one on the overview; above, sampled (statistics say -1 until a first ANALYZE). */
export const EXACT_SESSION_COUNT_UP_TO = 200_000;
/** The share of the sessions table's pages the estimate reads: 1% of 3M sessions is some 30,000 rows. */
export const SESSION_SAMPLE_PERCENT = 1;

/** The rows of `table` that `where` picks: exact up to `exactUpTo` rows (by its statistics), else sampled. */
async function countOrEstimate(
  q: Queryable,
  of: { table: 'sessions' | 'users'; where: Sql },
  exactUpTo: number,
  samplePercent: number,
): Promise<{ count: number; estimated: boolean }> {
  const table = sql.identifier(of.table);
  const [{ rows }] = await all<{ rows: number }>(
    q,
    sql`SELECT reltuples::float8 AS rows FROM pg_class WHERE oid = ${of.table}::regclass`,
  );
  const estimated = rows > exactUpTo;
  const [{ n }] = await all<{ n: number }>(
    q,
    estimated
      ? sql`SELECT (count(*) * 100 / ${samplePercent}::float8)::int AS n
            FROM ${table} TABLESAMPLE SYSTEM (${samplePercent}) WHERE ${of.where}`
      : sql`SELECT count(*)::int AS n FROM ${table} WHERE ${of.where}`,
  );
  return { count: n, estimated };
}
