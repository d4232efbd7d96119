import type { Redis } from 'ioredis';
import type { RateCounterStore } from '../domain/rate-limiter.ts';

/** D29: counters in Redis when REDIS_URL is set; the window start is part of the key, so expiry is housekeeping only. */
export class RedisRateCounterStore implements RateCounterStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async hit(key: string, windowStart: Date, windowSeconds: number): Promise<number> {
    const k = `${this.prefix}rl:${key}:${windowStart.getTime()}`;
    const results = await this.redis
      .multi()
      .incr(k)
      .expire(k, windowSeconds + 60)
      .exec();
    const [err, count] = results?.[0] ?? [new Error('redis transaction aborted'), 0];
    if (err) throw err;
    return Number(count);
  }
}
