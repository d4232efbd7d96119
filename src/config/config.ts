import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
// The version, read at build time in the bundle (P84) and at import under tsx.
import pkg from '../../package.json' with { type: 'json' };
import type { LogFormat } from '../logger.ts';
import { parseRateLimits, type RateLimits } from './rate-limits.ts';

/** D39: DATABASE_URL for a PGlite in memory, which keeps nothing after the process (tests, a quick look). */
export const MEMORY_DATABASE_URL = 'memory://';

export type AppEnv = 'development' | 'staging' | 'production';
export type SmsProviderName = 'console' | 'http' | 'twilio';

export interface Config {
  appEnv: AppEnv;
  port: number;
  host: string;
  baseUrl: string;
  authUrl: string;
  verifyUrl: string;
  databaseUrl: string | undefined;
  dataDir: string;
  redisUrl: string | undefined;
  redisKeyPrefix: string;
  adminToken: string | undefined;
  /** P75: bearer token of GET /metrics; unset, the route does not exist */
  metricsToken: string | undefined;
  smsProvider: SmsProviderName;
  smsHttpUrl: string | undefined;
  twilio: { accountSid: string; authToken: string; from: string; apiUrl: string } | undefined;
  testPhoneNumbers: ReadonlyMap<string, string>;
  kycProvider: 'manual' | 'sandbox';
  /** days after a decision that KYC photos are kept; undefined = until the account is purged */
  kycRetentionDays: number | undefined;
  /** P101: days the operators' trail keeps a row; undefined = until deleted by hand */
  adminActionsRetentionDays: number | undefined;
  webhookAllowPrivateNetworks: boolean;
  firstPartyClientId: string;
  pinPepper: string | undefined;
  pinPepperFallback: string | undefined;
  keyEncryptionKey: string | undefined;
  keyEncryptionKeyFallback: string | undefined;
  enumerationProtection: boolean;
  trustProxy: boolean;
  logLevel: string;
  /** `LOG_FORMAT`: pretty lines on a terminal, JSON otherwise (`auto`), or one of them always */
  logFormat: LogFormat;
  rateLimits: RateLimits;
  /** HTTP worker processes (node:cluster); more than one needs PostgreSQL, since PGlite is one process's */
  webConcurrency: number;
  version: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

type Env = Record<string, string | undefined>;

/** D39: reads a `.env` file (KEY=VALUE lines) without overriding variables already set. */
export function readDotEnv(path = resolve('.env')): Env {
  if (!existsSync(path)) return {};
  const out: Env = {};
  for (const line of readFileSync(path, 'utf8').split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)\s*$/.exec(line);
    if (!m || line.trimStart().startsWith('#')) continue;
    out[m[1]] = m[2].replace(/^(['"])(.*)\1$/, '$2');
  }
  return out;
}

/** D39: one schema for every variable, validated at start; every bad variable is named in one error. */
export function loadConfig(env: Env): Readonly<Config> {
  const problems: string[] = [];
  const str = (name: string) => {
    const v = env[name]?.trim();
    return v ? v : undefined;
  };
  const bool = (name: string, fallback: boolean) => {
    const v = str(name);
    if (v === undefined) return fallback;
    if (v === 'true' || v === '1') return true;
    if (v === 'false' || v === '0') return false;
    problems.push(`${name} must be true or false (got "${v}")`);
    return fallback;
  };
  const oneOf = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const v = str(name) ?? fallback;
    if ((allowed as readonly string[]).includes(v)) return v as T;
    problems.push(`${name} must be one of ${allowed.join(', ')} (got "${v}")`);
    return fallback;
  };
  /** A retention in whole days, `least`-36500 (a hundred years: as good as kept), or undefined when unset. */
  const days = (name: string, least: number) => {
    const v = str(name);
    if (v === undefined) return undefined;
    const n = Number(v);
    if (Number.isInteger(n) && n >= least && n <= 36500) return n;
    problems.push(`${name} must be a whole number of days, ${least}-36500 (got "${v}")`);
    return undefined;
  };
  const url = (name: string, fallback: string) => {
    const v = str(name) ?? fallback;
    try {
      const u = new URL(v);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
      return v.replace(/\/+$/, '');
    } catch {
      problems.push(`${name} must be an http(s) URL (got "${v}")`);
      return fallback;
    }
  };

  const appEnv = oneOf<AppEnv>('APP_ENV', ['development', 'staging', 'production'], 'development');
  const portRaw = str('PORT') ?? '3000';
  const port = Number(portRaw);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    problems.push(`PORT must be 0-65535 (got "${portRaw}")`);
  const own = `http://localhost:${port}`;
  const baseUrl = url('BASE_URL', own);

  const smsProvider = oneOf<SmsProviderName>('SMS_PROVIDER', ['console', 'http', 'twilio'], 'console');
  const smsHttpUrl = str('SMS_HTTP_URL');
  if (smsProvider === 'http' && !smsHttpUrl) problems.push('SMS_HTTP_URL is required when SMS_PROVIDER=http');
  let twilio: Config['twilio'];
  if (smsProvider === 'twilio') {
    const [accountSid, authToken, from] = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'].map(str);
    for (const [n, v] of Object.entries({
      TWILIO_ACCOUNT_SID: accountSid,
      TWILIO_AUTH_TOKEN: authToken,
      TWILIO_FROM: from,
    })) {
      if (!v) problems.push(`${n} is required when SMS_PROVIDER=twilio`);
    }
    twilio = {
      accountSid: accountSid ?? '',
      authToken: authToken ?? '',
      from: from ?? '',
      apiUrl: url('TWILIO_API_URL', 'https://api.twilio.com'),
    };
  }

  const testPhoneNumbers = new Map<string, string>();
  for (const pair of (str('TEST_PHONE_NUMBERS') ?? '').split(',').filter((p) => p.trim())) {
    const m = /^\s*(\+\d{6,15})\s*=\s*(\d{6})\s*$/.exec(pair);
    if (m) testPhoneNumbers.set(m[1], m[2]);
    else problems.push(`TEST_PHONE_NUMBERS entry "${pair.trim()}" must look like +14155550100=000000`);
  }

  const kycProvider = oneOf<'manual' | 'sandbox'>('KYC_PROVIDER', ['manual', 'sandbox'], 'manual');
  const kycRetentionDays = days('KYC_RETENTION_DAYS', 0);
  // P101: at least a day; a trail kept for no time is no trail.
  const adminActionsRetentionDays = days('ADMIN_ACTIONS_RETENTION_DAYS', 1);
  const { limits: rateLimits, problems: rlProblems } = parseRateLimits(str('RATE_LIMITS'));
  problems.push(...rlProblems.map((p) => `RATE_LIMITS: ${p}`));

  const concurrencyRaw = str('WEB_CONCURRENCY') ?? '1';
  const webConcurrency = Number(concurrencyRaw);
  if (!Number.isInteger(webConcurrency) || webConcurrency < 1 || webConcurrency > 64) {
    problems.push(`WEB_CONCURRENCY must be a whole number from 1 to 64 (got "${concurrencyRaw}")`);
  } else if (webConcurrency > 1 && (!str('DATABASE_URL') || str('DATABASE_URL') === MEMORY_DATABASE_URL)) {
    problems.push('WEB_CONCURRENCY above 1 needs DATABASE_URL (PostgreSQL): PGlite belongs to one process');
  }

  const adminToken = str('ADMIN_TOKEN');
  if (adminToken !== undefined && adminToken.length < 24)
    problems.push('ADMIN_TOKEN must be at least 24 characters');
  // P75: the scraper's credential; unset, there is no /metrics.
  const metricsToken = str('METRICS_TOKEN');
  if (metricsToken !== undefined && metricsToken.length < 24)
    problems.push('METRICS_TOKEN must be at least 24 characters');

  const pinPepper = str('PIN_PEPPER');
  const pinPepperFallback = str('PIN_PEPPER_FALLBACK');
  const keyEncryptionKey = str('KEY_ENCRYPTION_KEY');
  const keyEncryptionKeyFallback = str('KEY_ENCRYPTION_KEY_FALLBACK');
  for (const [name, v] of [
    ['PIN_PEPPER', pinPepper],
    ['PIN_PEPPER_FALLBACK', pinPepperFallback],
    ['KEY_ENCRYPTION_KEY', keyEncryptionKey],
    ['KEY_ENCRYPTION_KEY_FALLBACK', keyEncryptionKeyFallback],
  ] as const) {
    if (v !== undefined && Buffer.from(v, 'base64').length < 32) {
      problems.push(`${name} must be at least 32 bytes, base64-encoded`);
    }
  }
  // P99, P114: the same secret twice is a change half made: the old one is nowhere, and nothing says so.
  for (const [name, fallback, current] of [
    ['KEY_ENCRYPTION_KEY', keyEncryptionKeyFallback, keyEncryptionKey],
    ['PIN_PEPPER', pinPepperFallback, pinPepper],
  ] as const)
    if (
      fallback !== undefined &&
      current !== undefined &&
      Buffer.from(fallback, 'base64').equals(Buffer.from(current, 'base64'))
    )
      problems.push(`${name}_FALLBACK must not be ${name} itself`);

  // D35: production refuses test numbers, the sandbox KYC provider, missing secrets, and the console SMS
  // provider (it would write one-time codes into the logs).
  if (appEnv === 'production') {
    if (testPhoneNumbers.size) problems.push('TEST_PHONE_NUMBERS is not allowed when APP_ENV=production');
    if (kycProvider === 'sandbox')
      problems.push('KYC_PROVIDER=sandbox is not allowed when APP_ENV=production');
    if (!pinPepper) problems.push('PIN_PEPPER is required when APP_ENV=production');
    if (!keyEncryptionKey) problems.push('KEY_ENCRYPTION_KEY is required when APP_ENV=production');
    if (smsProvider === 'console')
      problems.push('SMS_PROVIDER=console is not allowed when APP_ENV=production');
    if (!str('DATABASE_URL')) problems.push('DATABASE_URL is required when APP_ENV=production');
  }

  const config: Config = {
    appEnv,
    port,
    host: str('HOST') ?? '0.0.0.0',
    baseUrl,
    authUrl: url('AUTH_URL', baseUrl),
    verifyUrl: url('VERIFY_URL', baseUrl),
    databaseUrl: str('DATABASE_URL'),
    dataDir: resolve(str('DATA_DIR') ?? './data'),
    redisUrl: str('REDIS_URL'),
    redisKeyPrefix: str('REDIS_KEY_PREFIX') ?? 'callsign:',
    adminToken,
    metricsToken,
    smsProvider,
    smsHttpUrl,
    twilio,
    testPhoneNumbers,
    kycProvider,
    kycRetentionDays,
    adminActionsRetentionDays,
    webhookAllowPrivateNetworks: bool('WEBHOOK_ALLOW_PRIVATE_NETWORKS', false),
    firstPartyClientId: str('FIRST_PARTY_CLIENT_ID') ?? 'callsign',
    pinPepper,
    pinPepperFallback,
    keyEncryptionKey,
    keyEncryptionKeyFallback,
    enumerationProtection: bool('ENUMERATION_PROTECTION', false),
    trustProxy: bool('TRUST_PROXY', false),
    logLevel: oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
    logFormat: oneOf('LOG_FORMAT', ['auto', 'json', 'pretty'], 'auto'),
    rateLimits,
    webConcurrency,
    version: pkg.version,
  };
  if (problems.length) throw new ConfigError(problems);
  return Object.freeze(config);
}

/**
 * What the start-up banner reminds the operator of: P107, a key-encryption fallback is a change under way,
 * not a setting to keep. Data it sealed stays readable only while it is set, and a leaked old key keeps
 * opening what was not sealed again. P114: so is a PIN pepper fallback; a leaked old pepper protects the PINs
 * still hashed with it no more.
 */
export function configWarnings(config: Config): string[] {
  return [
    ...(config.keyEncryptionKeyFallback
      ? [
          'KEY_ENCRYPTION_KEY_FALLBACK is set: run `npx callsign keys reencrypt`, and remove the fallback 30 days after KEY_ENCRYPTION_KEY changed (P99)',
        ]
      : []),
    ...(config.pinPepperFallback
      ? [
          "PIN_PEPPER_FALLBACK is set: each PIN moves to PIN_PEPPER at its owner's next sign-in; `npx callsign keys pin-pepper` counts those left, and once the fallback is removed their owners reset their PIN by SMS (P114)",
        ]
      : []),
  ];
}
