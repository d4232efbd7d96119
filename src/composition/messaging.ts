import type { Logger } from 'pino';
import type { Config } from '../config/config.ts';
import { MessageLog } from '../domain/messaging/message-log.ts';
import { MessageRecords } from '../domain/messaging/message-records.ts';
import { Messenger } from '../domain/messaging/messenger.ts';
import { ProviderHealth } from '../domain/messaging/provider-health.ts';
import { MessageReceipts, type MessageReceiptsDeps } from '../domain/messaging/receipts.ts';
import type { PurposeKeys } from '../domain/purpose-keys.ts';
import type { Metrics } from '../observability/metrics.ts';
import type { Clock } from '../providers/clock.ts';
import { providerOf, receiptReaderOf } from '../providers/messaging/index.ts';
import type { ReceiptReader } from '../providers/messaging/receipts/receipt.ts';
import type { Random } from '../providers/random.ts';
import type { Database } from '../storage/db.ts';

export interface MessagingParts {
  config: Config;
  db: Database;
  clock: Clock;
  random: Random;
  logger: Logger;
  metrics: Metrics;
  /** seals the codes kept for a re-send */
  codeKeys: PurposeKeys;
}

/**
 * The messenger of the configured providers and routes (MESSAGING_CONFIG, or SMS_PROVIDER alone), and what
 * reads and applies their delivery receipts.
 */
export function messagingFor(p: MessagingParts) {
  const { config, metrics } = p;
  const { providers, routes, fallback } = config.messaging;
  const receipts = `${config.baseUrl}/hooks/messages`;
  const log = new MessageLog({
    db: p.db,
    clock: p.clock,
    random: p.random,
    codeKeys: p.codeKeys,
    codesSent: metrics.codesSent,
    codesCost: metrics.codesCost,
  });
  const messenger = new Messenger({
    plan: {
      providers: new Map(
        providers.map((c) => [c.name, providerOf(c, `${receipts}/${encodeURIComponent(c.name)}`)]),
      ),
      prices: new Map(providers.map((c) => [c.name, (c.price as Record<string, number> | undefined) ?? {}])),
      routes,
      fallback,
    },
    health: new ProviderHealth(p.clock),
    logger: p.logger,
    texts: {
      webOtpHost: new URL(config.authUrl).hostname,
      appHashes: [config.smsAppHash, ...config.androidApps.map((a) => a.smsHash)].filter(
        (hash): hash is string => !!hash,
      ),
    },
    log,
    messages: metrics.messages,
  });
  const receiptReaders = new Map<string, ReceiptReader>();
  for (const c of providers) {
    const reader = receiptReaderOf(c);
    if (reader) receiptReaders.set(c.name, reader);
  }
  const messageRecords = new MessageRecords({
    db: p.db,
    clock: p.clock,
    receiptsFrom: new Set(receiptReaders.keys()),
  });
  return { messenger, messageLog: log, receiptReaders, messageRecords };
}

/** What applies delivery receipts: a failed code's one re-send passes the SMS defence like a first send. */
export function messageReceiptsFor(
  p: MessagingParts,
  parts: { messenger: Messenger; messageLog: MessageLog; defence: MessageReceiptsDeps['defence'] },
) {
  const { metrics } = p;
  return new MessageReceipts({
    db: p.db,
    clock: p.clock,
    logger: p.logger,
    messenger: parts.messenger,
    log: parts.messageLog,
    defence: parts.defence,
    messages: metrics.messages,
    deliveries: metrics.messageDelivery,
  });
}
