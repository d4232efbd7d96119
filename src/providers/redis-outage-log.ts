import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * The Redis client's connection errors reach the service's log as one JSON line per outage, and its
 * recovery as another. Without a listener, ioredis writes "[ioredis] Unhandled error event" and a stack to
 * stderr at every reconnection attempt, past the log's format and level. The URL is not logged: it may
 * hold a password.
 */
export function logRedisOutages(redis: Redis, logger: Logger): void {
  let down = false;
  redis.on('error', (err: Error) => {
    if (down) return;
    down = true;
    logger.error(
      // Not under `code`: the log redacts every field of that name (OTP codes).
      { reason: err.message },
      'Redis does not answer: the rate limits count in the database until it is back (RATE_LIMITS_WITHOUT_REDIS=closed: code sends are refused)',
    );
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    logger.info('Redis answers again');
  });
}
