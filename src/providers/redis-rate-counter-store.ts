import { SpanKind } from '@opentelemetry/api';
import type { Redis } from 'ioredis';
import type { RedisCounters } from '../domain/rate-counters-without-redis.ts';
import { countRedisCommand } from '../observability/round-trips.ts';
import { inSpan } from '../observability/tracing.ts';

// INCRBY and EXPIRE as one atomic command (not MULTI), so ioredis can pipeline the hits of concurrent
// requests into one write. The hits that created the key set its expiry.
const ADD = `local n = redis.call('INCRBY', KEYS[1], ARGV[2])
if n == tonumber(ARGV[2]) then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return n`;

/** A counter's span: the command, never its key (which holds an address or a phone number). */
const REDIS_SPAN = { 'db.system.name': 'redis', 'db.operation.name': 'EVALSHA' };

type WithAdd = Redis & { rateAdd(key: string, ttlSeconds: number, hits: number): Promise<number> };

/** Counters in Redis when REDIS_URL is set; the window start is part of the key, so expiry is housekeeping only. */
export class RedisRateCounterStore implements RedisCounters {
  private readonly redis: WithAdd;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    redis.defineCommand('rateAdd', { numberOfKeys: 1, lua: ADD });
    this.redis = redis as WithAdd;
  }

  /** Whether the client is connected and takes commands now, rather than queueing them or failing. */
  ready(): boolean {
    return this.redis.status === 'ready';
  }

  async add(key: string, windowStart: Date, windowSeconds: number, hits: number): Promise<number> {
    const redisKey = `${this.prefix}rl:${key}:${windowStart.getTime()}`;
    countRedisCommand();
    return inSpan(
      'EVALSHA rate_add',
      REDIS_SPAN,
      async () => Number(await this.redis.rateAdd(redisKey, windowSeconds + 60, hits)),
      SpanKind.CLIENT,
    );
  }
}
