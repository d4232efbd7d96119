import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../config/config.ts';
import type { RedisSettings } from '../config/redis-settings.ts';
import { resolveSecrets, type Secrets } from '../config/secrets.ts';
import { createLogger } from '../observability/logger.ts';
import { countRoundTrips } from '../observability/round-trips.ts';
import { startTracing } from '../observability/tracing.ts';
import { type Clock, systemClock } from '../providers/clock.ts';
import { cryptoRandom, type Random } from '../providers/random.ts';
import { logRedisOutages } from '../providers/redis-outage-log.ts';
import type { WebhookSender } from '../providers/webhook-sender.ts';
import { countedDatabase } from '../storage/counted-database.ts';
import { type Database, openDatabase } from '../storage/db.ts';
import { migrate } from '../storage/migrate.ts';
import { tracedDatabase } from '../storage/traced-database.ts';
import type { Container } from './container-fields.ts';
import { compose, type Opened } from './root.ts';

export type { Container };

/** Parts a caller (a test, the CLI) may supply instead of the ones config would build. */
export interface ContainerParts {
  db?: Database;
  redis?: Redis;
  clock?: Clock;
  random?: Random;
  /** how webhooks reach receivers (tests give one with its own resolver or timeout) */
  webhookSender?: WebhookSender;
  logger?: Logger;
  secrets?: Secrets;
  /** close the database with the container (false when the caller shares it) */
  ownsDb?: boolean;
}

/**
 * The Redis client of the rate counters: a command waits for at most 2 reconnections, so that in an
 * outage the counters turn to the database at once instead of queueing requests.
 * And for at most 2 s, as /health's check does, for a Redis that holds its connection but does not
 * answer (a counter takes well under a millisecond).
 */
const REDIS_COMMAND_TIMEOUT_MS = 2000;
const REDIS_OPTIONS = {
  maxRetriesPerRequest: 2,
  enableAutoPipelining: true,
  commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
};
/** The Redis of the settings: through its Sentinels where they are named, else at REDIS_URL; none without. */
export function connectRedis(s: RedisSettings): Redis | undefined {
  if (s.redisSentinels.length > 0) {
    // The password and database of REDIS_URL, where it is set too, are the master's.
    const at = s.redisUrl ? new URL(s.redisUrl) : undefined;
    return new Redis({
      ...REDIS_OPTIONS,
      sentinels: s.redisSentinels.map((sentinel) => ({ ...sentinel })),
      name: s.redisMasterName,
      password: at?.password ? decodeURIComponent(at.password) : undefined,
      db: at?.pathname.length && at.pathname.length > 1 ? Number(at.pathname.slice(1)) : undefined,
    });
  }
  return s.redisUrl ? new Redis(s.redisUrl, REDIS_OPTIONS) : undefined;
}

/**
 * The composition root: it and the builders of `composition/` it calls are the only places that name
 * concrete classes; every field of the container is named in `compose`.
 */
export async function buildContainer(config: Config, parts: ContainerParts = {}): Promise<Container> {
  const logger = parts.logger ?? createLogger(config.logLevel, process.stdout, config.logFormat);
  // Traces, where an OTLP endpoint is set: registered for the process, and every statement a span.
  const tracing = config.tracing ? startTracing(config.version) : undefined;
  const openedDb = parts.db ?? (await openDatabase(config, config.dataDir));
  const traced = tracing ? tracedDatabase(openedDb) : openedDb;
  // Round trips counted per request, where the operator asks (a diagnostic: the benchmark's).
  if (config.roundTripCounts) countRoundTrips();
  const db = config.roundTripCounts ? countedDatabase(traced) : traced;
  const redis = parts.redis ?? connectRedis(config);
  const opened: Opened = {
    config,
    logger,
    clock: parts.clock ?? systemClock,
    random: parts.random ?? cryptoRandom,
    secrets: parts.secrets ?? resolveSecrets(config),
    db,
    ownsDb: parts.ownsDb ?? !parts.db,
    redis,
    ownsRedis: !parts.redis,
    webhookSender: parts.webhookSender,
    tracing,
  };
  if (redis) logRedisOutages(redis, logger);
  try {
    if (opened.ownsDb) await migrate(db);
    return await compose(opened);
  } catch (err) {
    if (redis && opened.ownsRedis) redis.disconnect();
    if (opened.ownsDb) await db.close().catch(() => {});
    throw err;
  }
}
