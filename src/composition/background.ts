import type { Logger } from 'pino';
import type { Config } from '../config/config.ts';
import type { CodeEconomics } from '../domain/operators/code-economics.ts';
import type { PurposeKeys } from '../domain/purpose-keys.ts';
import type { AccessTokens } from '../domain/sessions/access-tokens.ts';
import type { SecurityEventTokens } from '../domain/signals/security-event-tokens.ts';
import type { WebhookEndpointService } from '../domain/webhooks/webhook-endpoints.ts';
import type { Metrics } from '../observability/metrics.ts';
import type { Clock } from '../providers/clock.ts';
import { WebhookSender } from '../providers/webhook-sender.ts';
import type { Database } from '../storage/db.ts';
import { BackchannelLogoutWorker } from '../workers/backchannel-logout.ts';
import { codeEconomicsRollup } from '../workers/code-economics-rollup.ts';
import { housekeeping } from '../workers/housekeeping.ts';
import { purgeDeletedAccounts } from '../workers/purge-deleted-accounts.ts';
import { WorkerRunner } from '../workers/runner.ts';
import { SsfPushWorker } from '../workers/ssf-push.ts';
import { WebhookDeliveryWorker } from '../workers/webhook-delivery.ts';

export interface BackgroundParts {
  config: Config;
  db: Database;
  clock: Clock;
  logger: Logger;
  tokens: AccessTokens;
  webhooks: WebhookEndpointService;
  /** how webhooks reach receivers (tests give one with its own resolver or timeout) */
  sender?: WebhookSender;
  metrics: Metrics;
  /** the economics of codes, rolled up every hour */
  codeEconomics: CodeEconomics;
  /** what pushed Shared Signals are made and sent with */
  signals: { tokens: SecurityEventTokens; headerKeys: PurposeKeys };
}

/**
 * The work beside the requests: webhook deliveries, back-channel logouts, pushed Shared Signals, periodic jobs,
 * and their metrics.
 */
export function backgroundWork({
  config,
  db,
  clock,
  logger,
  tokens,
  webhooks,
  sender: given,
  metrics,
  codeEconomics,
  signals,
}: BackgroundParts) {
  const sender = given ?? new WebhookSender({ allowPrivateNetworks: config.webhookAllowPrivateNetworks });
  const deliveries = new WebhookDeliveryWorker({
    db,
    clock,
    logger,
    sender,
    signingSecrets: webhooks.signingSecrets.bind(webhooks),
    attempts: metrics.webhookAttempts,
  });
  const backchannelLogouts = new BackchannelLogoutWorker({
    db,
    clock,
    logger,
    sender,
    tokens,
    attempts: metrics.backchannelLogoutAttempts,
  });
  const ssfPushes = new SsfPushWorker({ db, clock, logger, sender, ...signals });
  const worker = new WorkerRunner(
    db,
    clock,
    logger,
    [purgeDeletedAccounts(db), housekeeping(db, config), codeEconomicsRollup(codeEconomics)],
    [deliveries, backchannelLogouts, ssfPushes],
  );
  return { sender, metrics, deliveries, backchannelLogouts, ssfPushes, worker };
}
