import { addSeconds } from '../../src/providers/clock.ts';
import type { Database } from '../../src/storage/db.ts';
import { SESSION_SWEEP_SLICES } from '../../src/storage/purges/session-purge.ts';
import { housekeeping } from '../../src/workers/housekeeping.ts';

/** A day of hourly housekeeping runs from `from` (every slice of the session sweep), the counts summed. */
export async function housekeepingDay(db: Database, from: Date): Promise<Record<string, number>> {
  const job = housekeeping(db);
  const total: Record<string, number> = {};
  for (let hour = 0; hour < SESSION_SWEEP_SLICES; hour++) {
    const counts = await job.run(addSeconds(from, hour * 3600));
    for (const [name, n] of Object.entries(counts)) total[name] = (total[name] ?? 0) + n;
  }
  return total;
}
