import type { RateCounterStore } from '../domain/rate-limiter.ts';
import type { Database } from './db.ts';
import { rateCountersRepo } from './repositories/rate-counters.ts';

/** D29: counters in the database, shared by every instance on it. */
export class DbRateCounterStore implements RateCounterStore {
  constructor(private readonly db: Database) {}
  hit(key: string, windowStart: Date): Promise<number> {
    return rateCountersRepo.hit(this.db, key, windowStart);
  }
}
