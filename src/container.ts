import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { backgroundWork } from './composition/background.ts';
import { identityServices } from './composition/identity.ts';
import { messageReceiptsFor, messagingFor } from './composition/messaging.ts';
import { clientAndOperatorServices } from './composition/operations.ts';
import type { Config } from './config/config.ts';
import { resolveSecrets, type Secrets } from './config/secrets.ts';
import type { AccountDeletionService } from './domain/accounts/account-deletion.ts';
import type { AccountService } from './domain/accounts/accounts.ts';
import type { PhoneChangeService } from './domain/accounts/phone-change.ts';
import type { ClientService } from './domain/clients/clients.ts';
import type { ConnectedApps } from './domain/clients/connected-apps.ts';
import type { LogoService } from './domain/clients/logos.ts';
import type { OtpService } from './domain/codes/otp.ts';
import type { KycService } from './domain/kyc/kyc.ts';
import type { MessageRecords } from './domain/messaging/message-records.ts';
import type { Messenger } from './domain/messaging/messenger.ts';
import type { MessageReceipts } from './domain/messaging/receipts.ts';
import type { SendQueue } from './domain/messaging/send-queue.ts';
import type { AuthorizationService } from './domain/oauth/authorization.ts';
import type { GrantDeps } from './domain/oauth/grants/index.ts';
import type { TokenEndpointService } from './domain/oauth/token-endpoint.ts';
import { AdminActionLog } from './domain/operators/admin-actions.ts';
import type { AdminUserService } from './domain/operators/admin-users.ts';
import type { ConsoleSessionService } from './domain/operators/console-sessions.ts';
import { KeyReencryption } from './domain/operators/key-reencryption.ts';
import type { ApiUserService } from './domain/profiles/api-users.ts';
import type { AvatarService } from './domain/profiles/avatars.ts';
import type { ProfileService } from './domain/profiles/profiles.ts';
import { PurposeKeys } from './domain/purpose-keys.ts';
import { RateLimiter } from './domain/rate-limiter.ts';
import { AccessTokens } from './domain/sessions/access-tokens.ts';
import { KeyRing } from './domain/sessions/key-ring.ts';
import type { SessionService } from './domain/sessions/sessions.ts';
import type { SmsBreaker } from './domain/sms-defence/breaker.ts';
import type { PersonCheck } from './domain/sms-defence/person-check.ts';
import { Events } from './domain/webhooks/events.ts';
import type { WebhookEndpointService } from './domain/webhooks/webhook-endpoints.ts';
import { createLogger } from './logger.ts';
import { Metrics } from './metrics.ts';
import { type Clock, systemClock } from './providers/clock.ts';
import type { ReceiptReader } from './providers/messaging/receipts/receipt.ts';
import { cryptoRandom, type Random } from './providers/random.ts';
import { logRedisOutages } from './providers/redis-outage-log.ts';
import { RedisRateCounterStore } from './providers/redis-rate-counter-store.ts';
import { type Database, openDatabase } from './storage/db.ts';
import { DbRateCounterStore } from './storage/db-rate-counter-store.ts';
import { migrate } from './storage/migrate.ts';
import { RateHitBatches } from './storage/rate-hit-batches.ts';
import { webhookDeliveriesRepo } from './storage/repositories/webhook-deliveries.ts';
import type { WebhookSender } from './webhooks/http-sender.ts';
import type { BackchannelLogoutWorker } from './workers/backchannel-logout.ts';
import type { WorkerRunner } from './workers/runner.ts';
import type { WebhookDeliveryWorker } from './workers/webhook-delivery.ts';

export interface Container {
  config: Config;
  logger: Logger;
  db: Database;
  redis: Redis | undefined;
  clock: Clock;
  random: Random;
  keys: KeyRing;
  rateLimiter: RateLimiter;
  otp: OtpService;
  /** the sends that leave a request's path, waited for as the service stops */
  sendQueue: SendQueue;
  /** carries codes and notices to phones by the configured routes */
  messenger: Messenger;
  /** the messages sent, as operators read them */
  messageRecords: MessageRecords;
  /** applies the providers' delivery receipts */
  messageReceipts: MessageReceipts;
  /** how each provider's receipts are checked, by its configured name */
  receiptReaders: ReadonlyMap<string, ReceiptReader>;
  /** the SMS defence's proof of a person: proof-of-work challenges, or a hosted CAPTCHA */
  challenges: PersonCheck;
  /** the SMS defence's country breaker, as operators see and override it */
  smsBreaker: SmsBreaker;
  sessions: SessionService;
  accounts: AccountService;
  profiles: ProfileService;
  clients: ClientService;
  authorization: AuthorizationService;
  /** P102: the apps a user allowed, and withdrawing that */
  connectedApps: ConnectedApps;
  oauthTokens: TokenEndpointService;
  /** what the token endpoint's grants use (domain/oauth/grants/) */
  tokenGrants: GrantDeps;
  /** seals the authorization page's state into its forms */
  pageStateKeys: PurposeKeys;
  reencryption: KeyReencryption;
  adminActions: AdminActionLog;
  /** P100: a secret of this process by which the admin API knows the console's in-process calls */
  consoleCallMark: string;
  deletion: AccountDeletionService;
  phoneChange: PhoneChangeService;
  apiUsers: ApiUserService;
  avatars: AvatarService;
  tokens: AccessTokens;
  webhooks: WebhookEndpointService;
  kyc: KycService;
  /** client and instance logos, fetched once and served from here */
  logos: LogoService;
  adminUsers: AdminUserService;
  /** the console's sign-ins (only with ADMIN_TOKEN) */
  consoleSessions: ConsoleSessionService;
  /** sends due webhook deliveries; the worker runner starts and stops it */
  deliveries: WebhookDeliveryWorker;
  /** P109: sends due back-channel logouts; the worker runner starts and stops it */
  backchannelLogouts: BackchannelLogoutWorker;
  /** periodic jobs and webhook delivery; `callsign serve` and `callsign worker` start it */
  worker: WorkerRunner;
  /** P75 */
  metrics: Metrics;
  close(): Promise<void>;
}

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
 * The Redis client of the rate counters (D29): a command waits for at most 2 reconnections, so that an
 * outage answers (a 500 where a limit is needed, /health degraded) instead of queueing requests.
 * And for at most 2 s, as /health's check does, for a Redis that holds its connection but does not
 * answer (a counter takes well under a millisecond).
 */
const REDIS_COMMAND_TIMEOUT_MS = 2000;
export const connectRedis = (url: string) =>
  new Redis(url, {
    maxRetriesPerRequest: 2,
    enableAutoPipelining: true,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
  });

/** D29: the limits' counters in Redis when it is configured, else in the database, hits gathered in batches. */
function rateLimiterOf(config: Config, db: Database, redis: Redis | undefined, clock: Clock) {
  const store = redis ? new RedisRateCounterStore(redis, config.redisKeyPrefix) : new DbRateCounterStore(db);
  return new RateLimiter(new RateHitBatches(store), config.rateLimits, clock);
}

/**
 * The composition root: it and the builders of `composition/` it calls are the only places that name
 * concrete classes; every field of the container is named here.
 */
export async function buildContainer(config: Config, parts: ContainerParts = {}): Promise<Container> {
  const logger = parts.logger ?? createLogger(config.logLevel, process.stdout, config.logFormat);
  const clock = parts.clock ?? systemClock;
  const random = parts.random ?? cryptoRandom;
  const secrets = parts.secrets ?? resolveSecrets(config);
  const db = parts.db ?? (await openDatabase(config.databaseUrl, config.dataDir));
  const ownsDb = parts.ownsDb ?? !parts.db;
  const redis = parts.redis ?? (config.redisUrl ? connectRedis(config.redisUrl) : undefined);
  const ownsRedis = !parts.redis;
  if (redis) logRedisOutages(redis, logger);

  try {
    if (ownsDb) await migrate(db);
    // P99: each purpose's keys, from KEY_ENCRYPTION_KEY and its fallback while it changes.
    const keysFor = (purpose: string) =>
      PurposeKeys.derive(secrets.keyEncryptionKey, secrets.keyEncryptionKeyFallback, purpose);
    const sealing = {
      signing_keys: keysFor('signing-keys'),
      webhook_secrets: keysFor('webhook-secrets'),
      kyc_photos: keysFor('kyc-photos'),
    };
    const keys = new KeyRing(db, sealing.signing_keys, clock);
    await keys.load();
    const events = new Events(clock, random);
    const tokens = new AccessTokens(keys, clock, random, config.baseUrl);
    const rateLimiter = rateLimiterOf(config, db, redis, clock);
    const metrics = new Metrics(() => webhookDeliveriesRepo.countPending(db));
    const codeKeys = keysFor('message-codes');
    const messagingParts = { config, db, clock, random, logger, metrics, codeKeys };
    const messaging = messagingFor(messagingParts);
    const { messenger } = messaging;
    const base = { config, secrets, logger, db, clock, random, events, tokens, messenger, keysFor };
    const foundation = { ...base, rateLimiter, metrics };
    const identity = identityServices(foundation);
    const messageReceipts = messageReceiptsFor(messagingParts, { ...messaging, defence: identity.defence });
    const { sessions } = identity;
    const services = clientAndOperatorServices(foundation, sessions, {
      webhookSecrets: sealing.webhook_secrets,
      kycPhotos: sealing.kyc_photos,
    });
    const background = backgroundWork({
      config,
      db,
      clock,
      logger,
      tokens,
      webhooks: services.webhooks,
      sender: parts.webhookSender,
      metrics,
    });
    const { worker, sender } = background;

    return {
      config,
      logger,
      db,
      redis,
      clock,
      random,
      keys,
      rateLimiter,
      // accounts, codes, sessions, profiles and the SMS defence
      otp: identity.otp,
      sendQueue: identity.sendQueue,
      challenges: identity.challenges,
      smsBreaker: identity.smsBreaker,
      sessions: identity.sessions,
      accounts: identity.accounts,
      profiles: identity.profiles,
      deletion: identity.deletion,
      phoneChange: identity.phoneChange,
      apiUsers: identity.apiUsers,
      avatars: identity.avatars,
      // messaging
      messenger,
      messageRecords: messaging.messageRecords,
      messageReceipts,
      receiptReaders: messaging.receiptReaders,
      // clients, OAuth, webhooks, KYC, operators
      logos: services.logos,
      clients: services.clients,
      connectedApps: services.connectedApps,
      webhooks: services.webhooks,
      kyc: services.kyc,
      authorization: services.authorization,
      oauthTokens: services.oauthTokens,
      tokenGrants: services.tokenGrants,
      adminUsers: services.adminUsers,
      consoleSessions: services.consoleSessions,
      // work in the background
      metrics,
      deliveries: background.deliveries,
      backchannelLogouts: background.backchannelLogouts,
      worker,
      pageStateKeys: keysFor('authorization-page-state'),
      reencryption: new KeyReencryption({ db, keys: sealing }),
      adminActions: new AdminActionLog({ db, clock }),
      consoleCallMark: random.token(24),
      tokens,
      async close() {
        await worker.stop();
        await identity.sendQueue.drain();
        sender.close();
        keys.stopAutoReload();
        if (redis && ownsRedis) await redis.quit().catch(() => redis.disconnect());
        if (ownsDb) await db.close();
      },
    };
  } catch (err) {
    if (redis && ownsRedis) redis.disconnect();
    if (ownsDb) await db.close().catch(() => {});
    throw err;
  }
}
