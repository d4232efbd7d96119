import { availableParallelism } from 'node:os';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from './config/config.ts';
import { resolveSecrets, type Secrets } from './config/secrets.ts';
import { AccessTokens } from './domain/access-tokens.ts';
import { AccountDeletionService } from './domain/account-deletion.ts';
import { AccountService } from './domain/accounts.ts';
import { AdminActionLog } from './domain/admin-actions.ts';
import { AdminUserService } from './domain/admin-users.ts';
import { ApiUserService } from './domain/api-users.ts';
import { AvatarService } from './domain/avatars.ts';
import { ClientService } from './domain/clients.ts';
import { ConnectedApps } from './domain/connected-apps.ts';
import { ConsoleSessionService } from './domain/console-sessions.ts';
import { Events } from './domain/events.ts';
import { KeyReencryption } from './domain/key-reencryption.ts';
import { KeyRing } from './domain/key-ring.ts';
import { KycService } from './domain/kyc/kyc.ts';
import { AuthorizationService } from './domain/oauth/authorization.ts';
import { TokenEndpointService } from './domain/oauth/token-endpoint.ts';
import { OtpService } from './domain/otp.ts';
import { PhoneChangeService } from './domain/phone-change.ts';
import { PinHasher } from './domain/pin-hasher.ts';
import { ProfileService } from './domain/profiles.ts';
import { PurposeKeys } from './domain/purpose-keys.ts';
import { RateLimiter } from './domain/rate-limiter.ts';
import { RefreshTokenCodec } from './domain/refresh-tokens.ts';
import { SessionService } from './domain/sessions.ts';
import { WebhookEndpointService } from './domain/webhook-endpoints.ts';
import { createLogger } from './logger.ts';
import { Metrics } from './metrics.ts';
import { type Clock, systemClock } from './providers/clock.ts';
import { manualKycProvider } from './providers/kyc/kyc-provider.ts';
import { sandboxKycProvider } from './providers/kyc/sandbox.ts';
import { cryptoRandom, type Random } from './providers/random.ts';
import { logRedisOutages } from './providers/redis-outage-log.ts';
import { RedisRateCounterStore } from './providers/redis-rate-counter-store.ts';
import { smsProviderFor } from './providers/sms/index.ts';
import type { SmsProvider } from './providers/sms/sms-provider.ts';
import { CodeExchanges } from './storage/code-exchanges.ts';
import { type Database, openDatabase } from './storage/db.ts';
import { DbRateCounterStore } from './storage/db-rate-counter-store.ts';
import { migrate } from './storage/migrate.ts';
import { RateHitBatches } from './storage/rate-hit-batches.ts';
import { webhookDeliveriesRepo } from './storage/repositories/webhook-deliveries.ts';
import { SessionRotations } from './storage/session-rotations.ts';
import { WebhookSender } from './webhooks/http-sender.ts';
import { BackchannelLogoutWorker } from './workers/backchannel-logout.ts';
import { housekeeping } from './workers/housekeeping.ts';
import { purgeDeletedAccounts } from './workers/purge-deleted-accounts.ts';
import { WorkerRunner } from './workers/runner.ts';
import { WebhookDeliveryWorker } from './workers/webhook-delivery.ts';

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
  sessions: SessionService;
  accounts: AccountService;
  profiles: ProfileService;
  clients: ClientService;
  authorization: AuthorizationService;
  /** P102: the apps a user allowed, and withdrawing that */
  connectedApps: ConnectedApps;
  oauthTokens: TokenEndpointService;
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
  sms?: SmsProvider;
  /** how webhooks reach receivers (tests give one with its own resolver or timeout) */
  webhookSender?: WebhookSender;
  logger?: Logger;
  secrets?: Secrets;
  /** close the database with the container (false when the caller shares it) */
  ownsDb?: boolean;
}

/**
 * The Redis client of the rate counters (D29): a command waits for at most 2 reconnections, so that an
 * outage answers (P4: a 500 where a limit is needed; P69: /health degraded) instead of queueing requests.
 * P95: and for at most 2 s, as /health's check does, for a Redis that holds its connection but does not
 * answer (a counter takes well under a millisecond).
 */
const REDIS_COMMAND_TIMEOUT_MS = 2000;
export const connectRedis = (url: string) =>
  new Redis(url, {
    maxRetriesPerRequest: 2,
    enableAutoPipelining: true,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
  });

/** The composition root: the only place that names concrete classes. */
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
    const sms = parts.sms ?? smsProviderFor(config);
    const otp = new OtpService({
      db,
      clock,
      random,
      sms,
      testPhoneNumbers: config.testPhoneNumbers, // D35: loadConfig refuses them in production
      codeKeys: keysFor('otp-codes'),
      enumerationProtection: config.enumerationProtection,
    });
    const sessions = new SessionService({
      db,
      clock,
      random,
      events,
      refreshTokens: new RefreshTokenCodec(keysFor('refresh-successor'), keysFor('refresh-tag')),
      rotations: new SessionRotations(db),
    });
    const accounts = new AccountService({
      db,
      clock,
      random,
      events,
      otp,
      // P56: the process's share of the cores (WEB_CONCURRENCY processes share them all).
      pins: new PinHasher(
        secrets.pinPepper,
        Math.max(1, Math.ceil(availableParallelism() / config.webConcurrency)),
        secrets.pinPepperFallback,
      ),
      sessions,
      tokens,
      firstPartyClientId: config.firstPartyClientId,
    });
    const profiles = new ProfileService({ db, clock, events });
    const clients = new ClientService({
      db,
      clock,
      random,
      sessions,
      allowPrivateNetworks: config.webhookAllowPrivateNetworks,
    });
    const authorization = new AuthorizationService({ db, clock, random });
    const connectedApps = new ConnectedApps({ db, clock, sessions });
    const oauthTokens = new TokenEndpointService({
      db,
      clock,
      clients,
      sessions,
      tokens,
      codeExchanges: new CodeExchanges(db),
    });
    const deletion = new AccountDeletionService({ db, clock, events, sessions, accounts });
    const phoneChange = new PhoneChangeService({ db, clock, events, otp, accounts, profiles, sms, logger });
    const apiUsers = new ApiUserService({ db, clock, profiles, deletion });
    const avatars = new AvatarService({ db, clock, profiles, baseUrl: config.baseUrl });
    const webhooks = new WebhookEndpointService({
      db,
      clock,
      random,
      secretKeys: sealing.webhook_secrets,
      allowPrivateNetworks: config.webhookAllowPrivateNetworks,
    });
    const kyc = new KycService({
      db,
      clock,
      random,
      events,
      // D31, D35: loadConfig refuses the sandbox in production
      provider: config.kycProvider === 'sandbox' ? sandboxKycProvider : manualKycProvider,
      verifyUrl: config.verifyUrl,
      photoKeys: sealing.kyc_photos,
    });
    const adminUsers = new AdminUserService({ db, clock, sessions, kyc, connectedApps });
    const consoleSessions = new ConsoleSessionService({
      db,
      clock,
      random,
      adminToken: config.adminToken ?? '',
    });
    const sender =
      parts.webhookSender ?? new WebhookSender({ allowPrivateNetworks: config.webhookAllowPrivateNetworks });
    const metrics = new Metrics(() => webhookDeliveriesRepo.countPending(db));
    const deliveries = new WebhookDeliveryWorker({
      db,
      clock,
      logger,
      sender,
      signingSecrets: (e) => webhooks.signingSecrets(e),
      onAttempt: (outcome) => metrics.webhookAttempts.inc({ outcome }),
    });
    const backchannelLogouts = new BackchannelLogoutWorker({
      db,
      clock,
      logger,
      sender,
      tokens,
      onAttempt: (outcome) => metrics.backchannelLogoutAttempts.inc({ outcome }),
    });
    const worker = new WorkerRunner(
      db,
      clock,
      logger,
      [purgeDeletedAccounts(db), housekeeping(db, config)],
      [deliveries, backchannelLogouts],
    );
    const store = redis
      ? new RedisRateCounterStore(redis, config.redisKeyPrefix)
      : new DbRateCounterStore(db);
    const rateLimiter = new RateLimiter(new RateHitBatches(store), config.rateLimits, clock);

    return {
      config,
      logger,
      db,
      redis,
      clock,
      random,
      keys,
      rateLimiter,
      otp,
      sessions,
      accounts,
      profiles,
      clients,
      authorization,
      connectedApps,
      oauthTokens,
      pageStateKeys: keysFor('authorization-page-state'),
      reencryption: new KeyReencryption({ db, keys: sealing }),
      adminActions: new AdminActionLog({ db, clock }),
      consoleCallMark: random.token(24),
      deletion,
      phoneChange,
      apiUsers,
      avatars,
      tokens,
      webhooks,
      kyc,
      adminUsers,
      consoleSessions,
      deliveries,
      backchannelLogouts,
      worker,
      metrics,
      async close() {
        await worker.stop();
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
