import type { Queryable } from '../db.ts';
import { all, sql } from '../sql.ts';
import { deleteInBatches } from './batched-purge.ts';

/**
 * Rules of the purge of ended sessions:
 * - A revoked session goes a day after its revocation, found through the index of revocations.
 * - A session whose refresh token ran out (nobody used it for the refresh lifetime) goes too, but no index
 *   holds that moment: every refresh rewrites it, and indexing it would make each rotation write every index of
 *   the table. So each hourly run reads one of SESSION_SWEEP_SLICES slices of the table's pages, in turn, in
 *   page order (a range of physical row addresses), and the whole table is read once a day; such a session is
 *   gone at most a day after the purge could first take it. Until then nothing reads it as live (every read of
 *   a live session checks its refresh expiry). A slice of pages, not of ids: ids are random, so a range of them
 *   has a row on nearly every page, and reading it would read the whole table out of order.
 */
export const SESSION_SWEEP_SLICES = 24;

/** The slice the run at `now` reads: the hour of the day, so consecutive hourly runs cover every slice. */
export const sliceOfHour = (now: Date) => Math.floor(now.getTime() / 3_600_000) % SESSION_SWEEP_SLICES;

/**
 * The row addresses from the first page of slice `k` of a table of `pages` pages to the first page of the next
 * slice; the last slice has no end, so pages added since the size was read are in it.
 */
export function sessionSlice(k: number, pages: number): { from: string; before: string | null } {
  const first = (s: number) => Math.floor((s * pages) / SESSION_SWEEP_SLICES);
  return {
    from: `(${first(k)},0)`,
    before: k === SESSION_SWEEP_SLICES - 1 ? null : `(${first(k + 1)},0)`,
  };
}

/** Removes sessions ended before `cutoff`: every revoked one, and the idle ones of this hour's slice. */
export async function purgeEndedSessions(q: Queryable, cutoff: Date, now: Date) {
  const revoked = await deleteInBatches(q, {
    table: 'sessions',
    where: sql`revoked_at < ${cutoff}`,
  });
  const [{ pages }] = await all<{ pages: number }>(
    q,
    sql`SELECT (pg_relation_size('sessions') / current_setting('block_size')::int)::int AS pages`,
  );
  const { from, before } = sessionSlice(sliceOfHour(now), pages);
  const idle = await deleteInBatches(q, {
    table: 'sessions',
    where: sql`ctid >= ${from}::tid ${before ? sql`AND ctid < ${before}::tid` : sql``}
      AND revoked_at IS NULL AND refresh_expires_at < ${cutoff}`,
  });
  return revoked + idle;
}
