import type { EnvReader } from './env-reader.ts';

// Redis, where rate counters are shared between instances: at one address (REDIS_URL), or found through
// Sentinel (REDIS_SENTINELS and REDIS_MASTER_NAME), which follows the master when Sentinel promotes a replica.

export interface RedisSettings {
  redisUrl: string | undefined;
  redisKeyPrefix: string;
  /** REDIS_SENTINELS: the Sentinels to ask where the master is, `host:port` each */
  redisSentinels: ReadonlyArray<{ host: string; port: number }>;
  /** REDIS_MASTER_NAME: the master's name as the Sentinels monitor it */
  redisMasterName: string;
  /** RATE_LIMITS_WITHOUT_REDIS: while Redis cannot be reached, count in the database, or refuse code sends */
  rateLimitsWithoutRedis: RedisOutageMode;
}

/** What the rate limits do while Redis cannot be reached. */
export const REDIS_OUTAGE_MODES = ['database', 'closed'] as const;
export type RedisOutageMode = (typeof REDIS_OUTAGE_MODES)[number];

export function redisSettings(r: EnvReader): RedisSettings {
  const sentinels = (r.str('REDIS_SENTINELS') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const m = /^([^:\s]+):(\d{1,5})$/.exec(entry);
      if (!m || Number(m[2]) > 65535)
        r.problems.push(`REDIS_SENTINELS entry "${entry}" must look like host:26379`);
      return { host: m?.[1] ?? '', port: Number(m?.[2] ?? 0) };
    });
  return {
    redisUrl: r.str('REDIS_URL'),
    redisKeyPrefix: r.str('REDIS_KEY_PREFIX') ?? 'callsign:',
    redisSentinels: sentinels,
    redisMasterName: r.str('REDIS_MASTER_NAME') ?? 'mymaster',
    rateLimitsWithoutRedis: r.oneOf('RATE_LIMITS_WITHOUT_REDIS', REDIS_OUTAGE_MODES, 'database'),
  };
}

/** Whether Redis holds the rate counters: at REDIS_URL, or through Sentinel. */
export const usesRedis = (s: RedisSettings) => s.redisUrl !== undefined || s.redisSentinels.length > 0;
