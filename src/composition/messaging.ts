import type { Logger } from 'pino';
import type { Config } from '../config/config.ts';
import { Messenger } from '../domain/messaging/messenger.ts';
import { ProviderHealth } from '../domain/messaging/provider-health.ts';
import type { Clock } from '../providers/clock.ts';
import { providerOf } from '../providers/messaging/index.ts';

/** The messenger of the configured providers and routes (MESSAGING_CONFIG, or SMS_PROVIDER alone). */
export function messengerFor(config: Config, clock: Clock, logger: Logger): Messenger {
  const { providers, routes, fallback } = config.messaging;
  return new Messenger({
    plan: { providers: new Map(providers.map((p) => [p.name, providerOf(p)])), routes, fallback },
    health: new ProviderHealth(clock),
    logger,
    texts: { webOtpHost: new URL(config.authUrl).hostname, appHash: config.smsAppHash },
  });
}
