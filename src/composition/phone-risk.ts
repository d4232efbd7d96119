import { PhoneRiskService } from '../domain/phone-risk/phone-risk.ts';
import { simCheckProvider } from '../providers/sim-check/index.ts';
import type { Foundation } from './foundation.ts';

/** The SIM swap and recycling checks before a code signs in or resets a PIN, by the configured provider. */
export function phoneRiskService(f: Foundation): PhoneRiskService {
  const { config, db, clock, random, events } = f;
  return new PhoneRiskService({
    db,
    clock,
    random,
    events,
    provider: simCheckProvider(config.simCheck, () => clock.now()),
    settings: config.simCheck,
    signInMethods: config.signInMethods,
    onCheck: (provider, check, outcome) => f.metrics.phoneChecks.inc({ provider, check, outcome }),
  });
}
