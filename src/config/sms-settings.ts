// The SMS defence's settings: where codes may go, the country breaker, and a hosted CAPTCHA.

import { CAPTCHA_VENDORS, type CaptchaSettings, type CaptchaVendor } from './captcha-vendors.ts';
import type { EnvReader } from './env-reader.ts';
import {
  type BreakerSettings,
  DEFAULT_BLOCKED_NUMBER_TYPES,
  DEFAULT_BREAKER,
  type DestinationPolicy,
  isDestinationKey,
  NUMBER_TYPES,
} from './sms-defence-settings.ts';

/** Where codes may go: countries allowed and blocked (ISO 3166-1 alpha-2, or 001), number types refused. */
export function smsDestinations(r: EnvReader): DestinationPolicy {
  const countries = (name: string) => {
    const list = r.list(name);
    for (const code of list ?? [])
      if (!isDestinationKey(code))
        r.problems.push(
          `${name}: "${code}" is not an ISO 3166-1 alpha-2 code (or 001: numbers with no country)`,
        );
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

/** CAPTCHA_PROVIDER with CAPTCHA_SECRET and CAPTCHA_SITE_KEY (and CAPTCHA_VERIFY_URL); unset, no CAPTCHA. */
export function captchaSettings(r: EnvReader): CaptchaSettings | undefined {
  if (!r.str('CAPTCHA_PROVIDER')) return undefined;
  const provider = r.oneOf<CaptchaVendor>('CAPTCHA_PROVIDER', ['turnstile', 'hcaptcha'], 'turnstile');
  const secret = r.str('CAPTCHA_SECRET');
  const siteKey = r.str('CAPTCHA_SITE_KEY');
  if (!secret) r.problems.push("CAPTCHA_SECRET is required with CAPTCHA_PROVIDER (the widget's secret key)");
  if (!siteKey) r.problems.push("CAPTCHA_SITE_KEY is required with CAPTCHA_PROVIDER (the widget's site key)");
  const verifyUrl = r.url('CAPTCHA_VERIFY_URL', CAPTCHA_VENDORS[provider].verifyUrl);
  const hostnames = r.list('CAPTCHA_HOSTNAMES')?.map((host) => host.toLowerCase());
  return { provider, secret: secret ?? '', siteKey: siteKey ?? '', verifyUrl, hostnames };
}
