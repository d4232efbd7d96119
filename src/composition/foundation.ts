import type { Logger } from 'pino';
import type { Config } from '../config/config.ts';
import type { Secrets } from '../config/secrets.ts';
import type { Messenger } from '../domain/messaging/messenger.ts';
import type { PurposeKeys } from '../domain/purpose-keys.ts';
import type { RateLimiter } from '../domain/rate-limiter.ts';
import type { AccessTokens } from '../domain/sessions/access-tokens.ts';
import type { Events } from '../domain/webhooks/events.ts';
import type { Metrics } from '../observability/metrics.ts';
import type { Clock } from '../providers/clock.ts';
import type { Random } from '../providers/random.ts';
import type { Database } from '../storage/db.ts';

/** What every service is built from. */
export interface Foundation {
  config: Config;
  secrets: Secrets;
  logger: Logger;
  db: Database;
  clock: Clock;
  random: Random;
  events: Events;
  tokens: AccessTokens;
  messenger: Messenger;
  /** a purpose's keys, derived from KEY_ENCRYPTION_KEY (and its fallback while it changes) */
  keysFor: (purpose: string) => PurposeKeys;
  rateLimiter: RateLimiter;
  metrics: Metrics;
}
