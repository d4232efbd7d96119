// The SMS defence's settings, their types and defaults: what the configuration reads and the sms-defence room
// enforces (domain/sms-defence/).
import { COUNTRY_CODES } from '../i18n/countries.ts';

/** When a send needs a proof of a person: always, while its country's breaker is open, or never. */
export type ChallengeMode = 'off' | 'breaker' | 'always';

/** SMS_BREAKER: the sliding window, and when a country's breaker opens. */
export interface BreakerSettings {
  windowSeconds: number;
  minSends: number;
  minConversion: number;
  openCap: number;
}

export const DEFAULT_BREAKER: BreakerSettings = {
  windowSeconds: 3600,
  minSends: 50,
  minConversion: 0.2,
  openCap: 200,
};

/** The number types refused when the operator names none. */
export const DEFAULT_BLOCKED_NUMBER_TYPES = [
  'PREMIUM_RATE',
  'SHARED_COST',
  'UAN',
  'VOICEMAIL',
  'PAGER',
] as const;

/** libphonenumber's number types, the names `SMS_BLOCKED_NUMBER_TYPES` takes. */
export const NUMBER_TYPES = [
  'FIXED_LINE',
  'MOBILE',
  'FIXED_LINE_OR_MOBILE',
  'TOLL_FREE',
  'PREMIUM_RATE',
  'SHARED_COST',
  'VOIP',
  'PERSONAL_NUMBER',
  'PAGER',
  'UAN',
  'VOICEMAIL',
] as const;

/** Where codes may go. */
export interface DestinationPolicy {
  /** ISO 3166-1 alpha-2 codes (or 001); undefined: every country */
  allowedCountries: ReadonlySet<string> | undefined;
  blockedCountries: ReadonlySet<string>;
  blockedNumberTypes: ReadonlySet<string>;
}

/** The key of numbers with no country: libphonenumber's region for non-geographic entities. */
export const NON_GEOGRAPHIC = '001';

/** What operators name a destination by: an ISO 3166-1 alpha-2 code, or `001` for numbers with no country. */
export const isDestinationKey = (code: string) => code === NON_GEOGRAPHIC || COUNTRY_CODES.includes(code);
