// The SMS defence's settings: where codes may go, and the country breaker.
import { COUNTRY_CODES } from '../domain/kyc/countries.ts';
import { type BreakerSettings, DEFAULT_BREAKER } from '../domain/sms-breaker.ts';
import {
  DEFAULT_BLOCKED_NUMBER_TYPES,
  type DestinationPolicy,
  NUMBER_TYPES,
} from '../domain/sms-destinations.ts';
import type { EnvReader } from './env-reader.ts';

/** Where codes may go: countries allowed and blocked (ISO 3166-1 alpha-2), number types refused. */
export function smsDestinations(r: EnvReader): DestinationPolicy {
  const countries = (name: string) => {
    const list = r.list(name);
    for (const code of list ?? [])
      if (!COUNTRY_CODES.includes(code))
        r.problems.push(`${name}: "${code}" is not an ISO 3166-1 alpha-2 code`);
    return list && new Set(list);
  };
  const types = r.list('SMS_BLOCKED_NUMBER_TYPES') ?? [...DEFAULT_BLOCKED_NUMBER_TYPES];
  for (const type of types)
    if (!(NUMBER_TYPES as readonly string[]).includes(type))
      r.problems.push(`SMS_BLOCKED_NUMBER_TYPES: "${type}" is not one of ${NUMBER_TYPES.join(', ')}`);
  return {
    allowedCountries: countries('SMS_ALLOWED_COUNTRIES'),
    blockedCountries: countries('SMS_BLOCKED_COUNTRIES') ?? new Set(),
    blockedNumberTypes: new Set(types),
  };
}

/** SMS_BREAKER: `window=3600,min_sends=50,min_conversion=0.2,open_cap=200`, any of them. */
export function breakerSettings(r: EnvReader): BreakerSettings {
  const settings = { ...DEFAULT_BREAKER };
  const keys: Record<string, keyof BreakerSettings> = {
    window: 'windowSeconds',
    min_sends: 'minSends',
    min_conversion: 'minConversion',
    open_cap: 'openCap',
  };
  for (const part of (r.str('SMS_BREAKER') ?? '').split(',').filter((p) => p.trim())) {
    const [name, value] = part.split('=').map((x) => x.trim());
    const key = keys[name];
    const n = Number(value);
    const fits = key === 'minConversion' ? n >= 0 && n <= 1 : Number.isInteger(n) && n >= 1;
    if (!key || value === undefined || !fits)
      r.problems.push(
        `SMS_BREAKER: "${part.trim()}" is not window=, min_sends=, open_cap= (whole numbers) or min_conversion= (0-1)`,
      );
    else settings[key] = n;
  }
  return settings;
}
