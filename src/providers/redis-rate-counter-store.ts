import type { Redis } from 'ioredis';
import type { RateCounterStore } from '../domain/rate-limiter.ts';

// INCR and EXPIRE as one atomic command (not MULTI), so ioredis can pipeline the hits of concurrent
// requests into one write.
const HIT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return n`;

type WithHit = Redis & { rateHit(key: string, ttlSeconds: number): Promise<number> };

/** D29: counters in Redis when REDIS_URL is set; the window start is part of the key, so expiry is housekeeping only. */
export class RedisRateCounterStore implements RateCounterStore {
  private readonly redis: WithHit;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    redis.defineCommand('rateHit', { numberOfKeys: 1, lua: HIT });
    this.redis = redis as WithHit;
  }

  async hit(key: string, windowStart: Date, windowSeconds: number): Promise<number> {
    return Number(
      await this.redis.rateHit(`${this.prefix}rl:${key}:${windowStart.getTime()}`, windowSeconds + 60),
    );
  }
}
