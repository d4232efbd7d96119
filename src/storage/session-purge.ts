import { deleteInBatches } from './batched-purge.ts';
import type { Queryable } from './db.ts';

/**
 * Rules of the purge of ended sessions:
 * - A revoked session goes a day after its revocation, found through the index of revocations.
 * - A session whose refresh token ran out (nobody used it for the refresh lifetime) goes too, but no index
 *   holds that moment: every refresh rewrites it, and indexing it would make each rotation write every index of
 *   the table. So each hourly run walks one of SESSION_SWEEP_SLICES slices of the primary key, in turn, and the
 *   whole table is walked once a day; such a session is gone at most a day after the purge could first take it.
 *   Until then nothing reads it as live (every read of a live session checks its refresh expiry).
 */
export const SESSION_SWEEP_SLICES = 24;

const SLICE_SPAN = 2 ** 32 / SESSION_SWEEP_SLICES;
const hex8 = (n: number) => n.toString(16).padStart(8, '0');

/** The first and last id of slice `k` (ids are random UUIDs; a slice is a range of their first 32 bits). */
export function sessionSlice(k: number): { first: string; last: string } {
  const lo = Math.ceil(k * SLICE_SPAN);
  const hi = Math.ceil((k + 1) * SLICE_SPAN) - 1;
  return {
    first: `${hex8(lo)}-0000-0000-0000-000000000000`,
    last: `${hex8(hi)}-ffff-ffff-ffff-ffffffffffff`,
  };
}

/** The slice the run at `now` walks: the hour of the day, so consecutive hourly runs cover every slice. */
export const sliceOfHour = (now: Date) => Math.floor(now.getTime() / 3_600_000) % SESSION_SWEEP_SLICES;

/** Removes sessions ended before `cutoff`: every revoked one, and the idle ones of this hour's slice. */
export async function purgeEndedSessions(q: Queryable, cutoff: Date, now: Date) {
  const revoked = await deleteInBatches(q, {
    table: 'sessions',
    where: 'revoked_at < $1',
    params: [cutoff],
  });
  const { first, last } = sessionSlice(sliceOfHour(now));
  const idle = await deleteInBatches(q, {
    table: 'sessions',
    where: 'id BETWEEN $2 AND $3 AND revoked_at IS NULL AND refresh_expires_at < $1',
    params: [cutoff, first, last],
  });
  return revoked + idle;
}
