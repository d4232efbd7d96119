// Whether a phone number is first proven silently by its mobile network, and through whom.
//
// Rules it enforces (at start, every problem named):
// - NETWORK_VERIFICATION_PROVIDER is none (the default), camara, vonage or twilio, and each has every setting
//   it needs: camara NETWORK_VERIFICATION_CAMARA_ISSUER and NETWORK_VERIFICATION_CAMARA_API_ROOT (http(s)
//   URLs) and NETWORK_VERIFICATION_CAMARA_CLIENT_ID; vonage NETWORK_VERIFICATION_VONAGE_APPLICATION_ID and
//   NETWORK_VERIFICATION_VONAGE_PRIVATE_KEY; twilio TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and
//   NETWORK_VERIFICATION_TWILIO_SERVICE_SID. Each vendor's API address is a setting (its own by default).
// - NETWORK_VERIFICATION_CAMARA_PRIVATE_KEY, where set, is an RSA private key in PEM (the text, or a file
//   holding it); unset, a key is made on first start and kept, sealed, in the database. Vonage's key is the
//   application's own, required, and an RSA key in PEM too.
// - NETWORK_VERIFICATION_TIMEOUT_MS, how long one check may wait for the vendor, is 100-30000 ms (6000).
// - NETWORK_VERIFICATION_PRICE, where set, is a JSON object of ISO 3166-1 alpha-2 codes to what one check
//   costs there (a number, 0 or more), as the vendor bills each attempt, answered or not.
// - NETWORK_VERIFICATION_COUNTRIES are ISO 3166-1 alpha-2 codes; unset, every country is tried.
// - NETWORK_VERIFICATION_DAILY_LIMIT is a whole number of checks a UTC day, 1-100000000; unset, no limit.
import { createPrivateKey } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { COUNTRY_CODES } from '../i18n/countries.ts';
import type { EnvReader } from './env-reader.ts';

export interface CamaraNetworkSettings {
  kind: 'camara';
  issuer: string;
  apiRoot: string;
  clientId: string;
  hashed: boolean;
  /** the key of `private_key_jwt`, in PEM; undefined: the one kept in the database */
  privateKeyPem?: string;
}

export interface VonageNetworkSettings {
  kind: 'vonage';
  applicationId: string;
  privateKeyPem: string;
  apiUrl: string;
}

export interface TwilioNetworkSettings {
  kind: 'twilio';
  accountSid: string;
  authToken: string;
  serviceSid: string;
  apiUrl: string;
}

export interface NetworkVerificationSettings {
  /** NETWORK_VERIFICATION_PROVIDER; undefined: every number is proven by a code */
  provider?: CamaraNetworkSettings | VonageNetworkSettings | TwilioNetworkSettings;
  /** NETWORK_VERIFICATION_TIMEOUT_MS: how long one check may wait for the vendor */
  timeoutMs: number;
  /** NETWORK_VERIFICATION_COUNTRIES; undefined: every country */
  countries?: ReadonlySet<string>;
  /** NETWORK_VERIFICATION_DAILY_LIMIT; undefined: no limit */
  dailyLimit?: number;
  /** NETWORK_VERIFICATION_PRICE: what a check costs per country; a country unnamed has no known cost */
  prices: Readonly<Record<string, number>>;
}

const PROVIDERS = ['none', 'camara', 'vonage', 'twilio'] as const;
const PREFIX = 'NETWORK_VERIFICATION_CAMARA_';
const VONAGE = 'NETWORK_VERIFICATION_VONAGE_';

/** A PEM key given as its text or as the path of a file holding it; a problem named when it is neither. */
function privateKeyPem(r: EnvReader, name: string): string | undefined {
  const value = r.str(name);
  if (value === undefined) return undefined;
  const pem = value.includes('-----BEGIN')
    ? value.replaceAll('\\n', '\n')
    : existsSync(value)
      ? readFileSync(value, 'utf8')
      : '';
  try {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType === 'rsa') return String(key.export({ type: 'pkcs8', format: 'pem' }));
  } catch {}
  r.problems.push(`${name} must be an RSA private key in PEM, or the path of a file holding one`);
  return undefined;
}

function provider(r: EnvReader): NetworkVerificationSettings['provider'] {
  const kind = r.oneOf('NETWORK_VERIFICATION_PROVIDER', PROVIDERS, 'none');
  if (kind === 'none') return undefined;
  if (kind === 'vonage') return vonage(r);
  if (kind === 'twilio') return twilio(r);
  const names = [`${PREFIX}ISSUER`, `${PREFIX}API_ROOT`, `${PREFIX}CLIENT_ID`] as const;
  const v = r.required(names, 'NETWORK_VERIFICATION_PROVIDER=camara');
  return {
    kind,
    issuer: v[names[0]] && r.url(names[0], 'https://operator.invalid'),
    apiRoot: v[names[1]] && r.url(names[1], 'https://operator.invalid'),
    clientId: v[names[2]],
    hashed: r.bool(`${PREFIX}HASHED`, false),
    privateKeyPem: privateKeyPem(r, `${PREFIX}PRIVATE_KEY`),
  };
}

function vonage(r: EnvReader): VonageNetworkSettings {
  const why = 'NETWORK_VERIFICATION_PROVIDER=vonage';
  const v = r.required([`${VONAGE}APPLICATION_ID`, `${VONAGE}PRIVATE_KEY`], why);
  return {
    kind: 'vonage',
    applicationId: v[`${VONAGE}APPLICATION_ID`],
    privateKeyPem: (v[`${VONAGE}PRIVATE_KEY`] && privateKeyPem(r, `${VONAGE}PRIVATE_KEY`)) || '',
    apiUrl: r.url(`${VONAGE}API_URL`, 'https://api.nexmo.com'),
  };
}

function twilio(r: EnvReader): TwilioNetworkSettings {
  const sid = 'NETWORK_VERIFICATION_TWILIO_SERVICE_SID';
  const names = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', sid] as const;
  const v = r.required(names, 'NETWORK_VERIFICATION_PROVIDER=twilio');
  return {
    kind: 'twilio',
    accountSid: v.TWILIO_ACCOUNT_SID,
    authToken: v.TWILIO_AUTH_TOKEN,
    serviceSid: v[sid],
    apiUrl: r.url('NETWORK_VERIFICATION_TWILIO_API_URL', 'https://verify.twilio.com'),
  };
}

/** The price of one check per country, from a JSON object; every problem named. */
function prices(r: EnvReader): Record<string, number> {
  const name = 'NETWORK_VERIFICATION_PRICE';
  const raw = r.str(name);
  if (raw === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {}
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    r.problems.push(`${name} must be a JSON object of country codes to prices, e.g. {"NG": 0.004}`);
    return {};
  }
  const table: Record<string, number> = {};
  for (const [country, price] of Object.entries(parsed)) {
    if (!COUNTRY_CODES.includes(country))
      r.problems.push(`${name}: "${country}" is not an ISO 3166-1 alpha-2 code`);
    else if (typeof price !== 'number' || !Number.isFinite(price) || price < 0)
      r.problems.push(`${name}: the price of ${country} must be a number, 0 or more`);
    else table[country] = price;
  }
  return table;
}

export function networkVerificationSettings(r: EnvReader): NetworkVerificationSettings {
  const listed = r.list('NETWORK_VERIFICATION_COUNTRIES');
  for (const code of listed ?? [])
    if (!COUNTRY_CODES.includes(code))
      r.problems.push(`NETWORK_VERIFICATION_COUNTRIES: "${code}" is not an ISO 3166-1 alpha-2 country code`);
  const limit = r.str('NETWORK_VERIFICATION_DAILY_LIMIT');
  return {
    provider: provider(r),
    prices: prices(r),
    timeoutMs: r.integer(
      'NETWORK_VERIFICATION_TIMEOUT_MS',
      6000,
      100,
      30_000,
      'a whole number of ms, 100-30000',
    ),
    countries: listed && new Set(listed),
    dailyLimit:
      limit === undefined
        ? undefined
        : r.integer('NETWORK_VERIFICATION_DAILY_LIMIT', 1, 1, 100_000_000, 'a whole number, 1-100000000'),
  };
}
