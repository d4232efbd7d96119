// The SIM check providers: GSMA CAMARA, Twilio Lookup, or an operator's own service (sim-check.ts says what
// each answers).
import type { SimCheckSettings } from '../../config/sim-check-settings.ts';
import { CamaraSimCheck } from './camara.ts';
import { HttpSimCheck } from './http-check.ts';
import type { SimCheckProvider } from './sim-check.ts';
import { TwilioSimCheck } from './twilio-lookup.ts';

/** The configured provider; undefined when SIM_CHECK_PROVIDER is none. */
export function simCheckProvider(s: SimCheckSettings, now: () => Date): SimCheckProvider | undefined {
  const p = s.provider;
  if (!p) return undefined;
  if (p.kind === 'camara') return new CamaraSimCheck(p, now);
  if (p.kind === 'twilio') return new TwilioSimCheck(p, now);
  return new HttpSimCheck(p.url, s.swapMaxAgeHours);
}
