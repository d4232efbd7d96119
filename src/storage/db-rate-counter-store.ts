import type { RateCounterStore } from '../domain/rate-limiter.ts';
import type { Database } from './db.ts';
import { addRateHits } from './rules/rate-counters.ts';

/** Counters in the database, shared by every instance on it. */
export class DbRateCounterStore implements RateCounterStore {
  constructor(private readonly db: Database) {}
  add(key: string, windowStart: Date, _windowSeconds: number, hits: number): Promise<number> {
    return addRateHits(this.db, key, windowStart, hits);
  }
}
