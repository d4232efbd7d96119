import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../config/config.ts';
import type { Secrets } from '../config/secrets.ts';
import { AdminActionLog } from '../domain/operators/admin-actions.ts';
import { KeyReencryption } from '../domain/operators/key-reencryption.ts';
import { PurposeKeys } from '../domain/purpose-keys.ts';
import { RateCountersWithoutRedis } from '../domain/rate-counters-without-redis.ts';
import { RateLimiter } from '../domain/rate-limiter.ts';
import { AccessTokens } from '../domain/sessions/access-tokens.ts';
import { KeyRing } from '../domain/sessions/key-ring.ts';
import { Events } from '../domain/webhooks/events.ts';
import { Metrics } from '../observability/metrics.ts';
import type { Tracing } from '../observability/tracing.ts';
import type { Clock } from '../providers/clock.ts';
import type { Random } from '../providers/random.ts';
import { RedisRateCounterStore } from '../providers/redis-rate-counter-store.ts';
import type { WebhookSender } from '../providers/webhook-sender.ts';
import { RateHitBatches } from '../storage/batches/rate-hit-batches.ts';
import type { Database } from '../storage/db.ts';
import { DbRateCounterStore } from '../storage/db-rate-counter-store.ts';
import { webhookDeliveriesRepo } from '../storage/repositories/webhook-deliveries.ts';
import { backgroundWork } from './background.ts';
import type { Container } from './container-fields.ts';
import { identityServices } from './identity.ts';
import { messageReceiptsFor, messagingFor } from './messaging.ts';
import { networkVerificationFor } from './network-verification.ts';
import { clientAndOperatorServices } from './operations.ts';
import { whatsappTemplatesFor } from './whatsapp-templates.ts';

/** What the root opens before anything is composed, and whether it closes each again. */
export interface Opened {
  config: Config;
  logger: Logger;
  clock: Clock;
  random: Random;
  secrets: Secrets;
  db: Database;
  ownsDb: boolean;
  redis: Redis | undefined;
  ownsRedis: boolean;
  webhookSender: WebhookSender | undefined;
  /** the process's traces, where an OTLP endpoint is set */
  tracing: Tracing | undefined;
}

/**
 * The limits' counters in Redis when it is configured (in the database while Redis cannot be reached), else
 * in the database; hits gathered in batches.
 */
function rateLimiterOf(config: Config, db: Database, redis: Redis | undefined, clock: Clock) {
  const inDatabase = new DbRateCounterStore(db);
  const store = redis
    ? new RateCountersWithoutRedis(
        new RedisRateCounterStore(redis, config.redisKeyPrefix),
        inDatabase,
        config.rateLimitsWithoutRedis,
        clock,
      )
    : inDatabase;
  return new RateLimiter(new RateHitBatches(store), config.rateLimits, clock);
}

/** Each purpose's keys, from KEY_ENCRYPTION_KEY and its fallback while it changes, and the signing keys. */
async function keysOf({ secrets, db, clock }: Opened) {
  const keysFor = (purpose: string) =>
    PurposeKeys.derive(secrets.keyEncryptionKey, secrets.keyEncryptionKeyFallback, purpose);
  const sealing = {
    signing_keys: keysFor('signing-keys'),
    webhook_secrets: keysFor('webhook-secrets'),
    kyc_photos: keysFor('kyc-photos'),
    recovery_code_sets: keysFor('recovery-code-sets'),
    operator_client_keys: keysFor('operator-client-keys'),
    ssf_push_headers: keysFor('ssf-push-authorization'),
  };
  const keys = new KeyRing(db, sealing.signing_keys, clock);
  await keys.load();
  return { keysFor, sealing, keys };
}

/** What the work beside the requests uses: the clients' and operators' services, the metrics, the sender. */
const backgroundParts = (
  services: ReturnType<typeof clientAndOperatorServices>,
  metrics: Metrics,
  sender: WebhookSender | undefined,
) => ({
  codeEconomics: services.operators.codeEconomics,
  signals: services.signalPush,
  webhooks: services.webhooks,
  metrics,
  sender,
});

/** Every service, by name. */
export async function compose(o: Opened): Promise<Container> {
  const { config, logger, db, redis, clock, random, secrets } = o;
  const { keysFor, sealing, keys } = await keysOf(o);
  const events = new Events(clock, random);
  const tokens = new AccessTokens(keys, clock, random, config.baseUrl, config.oauth.accessTokenAlg);
  const rateLimiter = rateLimiterOf(config, db, redis, clock);
  const metrics = new Metrics(() => webhookDeliveriesRepo.countPending(db));
  const messagingParts = { config, db, clock, random, logger, metrics, codeKeys: keysFor('message-codes') };
  const messaging = messagingFor(messagingParts);
  const { messenger } = messaging;
  const base = { config, secrets, logger, db, clock, random, events, tokens, messenger, keysFor };
  const foundation = { ...base, rateLimiter, metrics };
  const identity = identityServices(foundation);
  const network = await networkVerificationFor(foundation, {
    ...identity,
    operatorKeys: sealing.operator_client_keys,
  });
  const messageReceipts = messageReceiptsFor(messagingParts, { ...messaging, defence: identity.defence });
  const services = clientAndOperatorServices(foundation, identity.sessions, {
    webhookSecrets: sealing.webhook_secrets,
    kycPhotos: sealing.kyc_photos,
    dpopNonces: keysFor('dpop-nonces'),
    signingKeys: keys,
    ssfHeaders: sealing.ssf_push_headers,
  });
  const background = backgroundWork({ ...base, ...backgroundParts(services, metrics, o.webhookSender) });
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
    tokens,
    metrics,
    worker,
    messenger,
    messageReceipts,
    pageStateKeys: keysFor('authorization-page-state'),
    // accounts, codes, sessions, profiles, phone risk and the SMS defence (and what else they share)
    ...identity,
    // the silent checks by the mobile network
    networkVerification: network.networkVerification,
    networkProofs: network.networkProofs,
    operatorClientKey: network.operatorKey,
    // messaging
    messageRecords: messaging.messageRecords,
    whatsappTemplates: whatsappTemplatesFor(config, logger),
    receiptReaders: messaging.receiptReaders,
    // clients, OAuth, webhooks, KYC, operators
    logos: services.logos,
    clients: services.clients,
    connectedApps: services.connectedApps,
    webhooks: services.webhooks,
    kyc: services.kyc,
    authorization: services.authorization,
    oauthTokens: services.oauthTokens,
    ...services.oauthProtocol,
    tokenGrants: services.tokenGrants,
    // the operators' views: users, imports, the console's sign-ins, the economics of codes
    ...services.operators,
    // work in the background
    deliveries: background.deliveries,
    backchannelLogouts: background.backchannelLogouts,
    ssfPushes: background.ssfPushes,
    reencryption: new KeyReencryption({ db, keys: sealing }),
    adminActions: new AdminActionLog({ db, clock }),
    consoleCallMark: random.token(24),
    tracing: o.tracing,
    async close() {
      await worker.stop();
      await identity.sendQueue.drain();
      sender.close();
      keys.stopAutoReload();
      if (redis && o.ownsRedis) await redis.quit().catch(() => redis.disconnect());
      if (o.ownsDb) await db.close();
      await o.tracing?.flush();
    },
  };
}
