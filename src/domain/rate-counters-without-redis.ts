import type { RedisOutageMode } from '../config/redis-settings.ts';
import type { Clock } from '../providers/clock.ts';
import { DomainError } from './errors.ts';
import type { RateCounterStore } from './rate-limiter.ts';

// What the rate limits count with while Redis, where their counters live, cannot be reached:
// - The limits keep counting, in the database's counters (the same table as without Redis), so no request
//   passes a limit uncounted: never fail open.
// - An operator may choose instead to refuse code sends while Redis is down (`closed`): every request counted
//   against a limit on sent codes answers 503 with Retry-After, the rest still count in the database.
// - While the Redis client is not connected, and for 5 s after a command failed (a Redis that holds its
//   connection and does not answer), the counters go straight to the database, so a request does not wait
//   out the Redis client's retries or its command timeout each time.
// Counts in the database start from nothing: during an outage a sender may be let through at most one
// window's limit beyond what Redis had counted.

/** The limits on sent codes, as their counters' keys begin: what `closed` refuses while Redis is down. */
const CODE_SEND_LIMITS = ['otp_send_', 'sms_daily:'];

/** How long a client refused in `closed` mode is asked to wait. */
export const REDIS_OUTAGE_RETRY_AFTER_SECONDS = 5;
/** How long the counters stay in the database after a Redis command failed, before Redis is tried again. */
export const REDIS_SKIPPED_AFTER_FAILURE_MS = 5000;

/** The Redis counters, and whether the Redis client is connected and ready for commands. */
export interface RedisCounters extends RateCounterStore {
  ready(): boolean;
}

export class RateCountersWithoutRedis implements RateCounterStore {
  /** When a Redis command last failed, in ms since the epoch. */
  #failedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly redis: RedisCounters,
    private readonly database: RateCounterStore,
    private readonly mode: RedisOutageMode,
    private readonly clock: Clock,
  ) {}

  async add(key: string, windowStart: Date, windowSeconds: number, hits: number): Promise<number> {
    const now = this.clock.now().getTime();
    if (this.redis.ready() && now - this.#failedAt >= REDIS_SKIPPED_AFTER_FAILURE_MS) {
      try {
        return await this.redis.add(key, windowStart, windowSeconds, hits);
      } catch {
        // Redis did not count it: the database does, below.
        this.#failedAt = this.clock.now().getTime();
      }
    }
    if (this.mode === 'closed' && CODE_SEND_LIMITS.some((limit) => key.startsWith(limit)))
      throw new DomainError('SERVICE_UNAVAILABLE', 'codes cannot be sent just now; try again shortly', {
        retry_after_seconds: REDIS_OUTAGE_RETRY_AFTER_SECONDS,
      });
    return this.database.add(key, windowStart, windowSeconds, hits);
  }
}
