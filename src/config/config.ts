import { resolve } from 'node:path';
// The version, read at build time in the bundle and at import under tsx.
import pkg from '../../package.json' with { type: 'json' };
import { LANGUAGES, type Language } from '../i18n/languages.ts';
import { type AppSettings, androidOrigin, appSettings, autofillProblems } from './app-settings.ts';
import { type AttestationSettings, attestationSettings } from './attestation-settings.ts';
import type { CaptchaSettings } from './captcha-vendors.ts';
import { ConfigError } from './config-error.ts';
import { corsOrigins } from './cors-settings.ts';
import { type DatabaseSettings, databaseSettings } from './database-settings.ts';
import { type Env, EnvReader } from './env-reader.ts';
import { listenSettings } from './listen-address.ts';
import { type LookSettings, lookSettings } from './look-settings.ts';
import { type SmsSettings, smsSettings } from './messaging-config.ts';
import { type NetworkVerificationSettings, networkVerificationSettings } from './network-settings.ts';
import { parseRateLimits, type RateLimits } from './rate-limits.ts';
import { type RedisSettings, redisSettings } from './redis-settings.ts';
import { type Retention, retentionSettings } from './retention-settings.ts';
import { type SecretSettings, secretSettings } from './secret-settings.ts';
import { type SignInSettings, signInSettings } from './sign-in-settings.ts';
import { type SimCheckSettings, simCheckSettings } from './sim-check-settings.ts';
import type { BreakerSettings, ChallengeMode, DestinationPolicy } from './sms-defence-settings.ts';
import { breakerSettings, captchaSettings, smsDestinations } from './sms-settings.ts';
import { type TrustProxy, trustProxySetting, trustProxyWarnings } from './trust-proxy.ts';

/** How the log is written: JSON lines, or readable lines for a terminal (`auto`: readable on a terminal). */
export type LogFormat = 'auto' | 'json' | 'pretty';

export { ConfigError } from './config-error.ts';

import { type OAuthSettings, oauthSettings } from './oauth-settings.ts';

export { readDotEnv } from './env-reader.ts';

/** DATABASE_URL for a PGlite in memory, which keeps nothing after the process (tests, a quick look). */
export const MEMORY_DATABASE_URL = 'memory://';

export type AppEnv = 'development' | 'test' | 'staging' | 'production';

export interface Config
  extends SmsSettings,
    SignInSettings,
    DatabaseSettings,
    RedisSettings,
    SecretSettings,
    AppSettings {
  /** ACCESS_TOKEN_ALG, REQUIRE_PAR: how tokens are signed and what every client must do */
  oauth: OAuthSettings;
  appEnv: AppEnv;
  port: number;
  host: string;
  baseUrl: string;
  /** where the `callsign` admin commands reach the admin API: CALLSIGN_ADMIN_URL, else this machine's listener */
  adminUrl: string;
  authUrl: string;
  verifyUrl: string;
  dataDir: string;
  adminToken: string | undefined;
  /** Bearer token of GET /metrics; unset, the route does not exist */
  metricsToken: string | undefined;
  testPhoneNumbers: ReadonlyMap<string, string>;
  /** where codes may go: SMS_ALLOWED_COUNTRIES, SMS_BLOCKED_COUNTRIES, SMS_BLOCKED_NUMBER_TYPES */
  smsDestinations: DestinationPolicy;
  /** SMS_BREAKER: the country breaker's window, thresholds and cap */
  smsBreaker: BreakerSettings;
  /** CHALLENGE_MODE: when a send needs a solved proof-of-work challenge */
  challengeMode: ChallengeMode;
  /** CHALLENGE_MAX_NUMBER: a challenge's difficulty */
  challengeMaxNumber: number;
  /** CAPTCHA_PROVIDER and its keys: a hosted CAPTCHA in the challenge's place */
  captcha: CaptchaSettings | undefined;
  /** SIM_CHECK_*: a code to a number checked against its SIM swaps and recycling first */
  simCheck: SimCheckSettings;
  /** APP_ATTESTATION, PLAY_INTEGRITY_*, APP_ATTEST_*: a code's send proven to come from the genuine app */
  attestation: AttestationSettings;
  /** NETWORK_VERIFICATION_*: a number proven silently by its mobile network before a code */
  networkVerification: NetworkVerificationSettings;
  /** CORS_ORIGINS: web apps on these origins may call the REST surface from a browser */
  corsOrigins: ReadonlySet<string>;
  /** SMS_DAILY_LIMIT: text messages a UTC day across all countries; undefined, no limit */
  smsDailyLimit: number | undefined;
  kycProvider: 'manual' | 'sandbox';
  /** how long each table that grows with use keeps its rows */
  retention: Retention;
  webhookAllowPrivateNetworks: boolean;
  firstPartyClientId: string;
  enumerationProtection: boolean;
  /** DEFAULT_LANGUAGE: the language when nothing asks for another */
  defaultLanguage: Language;
  look: LookSettings;
  /** which X-Forwarded-For hops are this service's own proxies */
  trustProxy: TrustProxy;
  logLevel: string;
  /** `LOG_FORMAT`: pretty lines on a terminal, JSON otherwise (`auto`), or one of them always */
  logFormat: LogFormat;
  /** OpenTelemetry traces: an OTLP endpoint set (OTEL_EXPORTER_OTLP_ENDPOINT or _TRACES_ENDPOINT), not disabled */
  tracing: boolean;
  /** ROUND_TRIP_COUNTS: each answer says the statements and round trips its request took (a diagnostic) */
  roundTripCounts: boolean;
  rateLimits: RateLimits;
  /** HTTP worker processes (node:cluster); more than one needs PostgreSQL, since PGlite is one process's */
  webConcurrency: number;
  version: string;
}

/** One schema for every variable, validated at start; every bad variable is named in one error. */
export function loadConfig(env: Env): Readonly<Config> {
  const r = new EnvReader(env);
  const appEnv = r.oneOf<AppEnv>('APP_ENV', ['development', 'test', 'staging', 'production'], 'development');
  const portRaw = r.str('PORT') ?? '3000';
  const port = Number(portRaw);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    r.problems.push(`PORT must be 0-65535 (got "${portRaw}")`);
  const baseUrl = r.url('BASE_URL', `http://localhost:${port}`);
  const sms = smsSettings(r, env);
  const secrets = secretSettings(r);
  const kycProvider = r.oneOf<'manual' | 'sandbox'>('KYC_PROVIDER', ['manual', 'sandbox'], 'manual');
  const { limits: rateLimits, problems: rateLimitProblems } = parseRateLimits(r.str('RATE_LIMITS'), appEnv);
  const smsBreaker = breakerSettings(r);
  rateLimits.otp_send_country_open = { limit: smsBreaker.openCap, windowSeconds: 3600 };
  const smsDailyLimit = r.str('SMS_DAILY_LIMIT')
    ? r.integer('SMS_DAILY_LIMIT', 1, 1, 1_000_000_000, 'a whole number of messages a day')
    : undefined;
  if (smsDailyLimit) rateLimits.sms_daily = { limit: smsDailyLimit, windowSeconds: 86_400 };
  r.problems.push(...rateLimitProblems.map((p) => `RATE_LIMITS: ${p}`));
  const [authUrl, look, apps] = [r.url('AUTH_URL', baseUrl), lookSettings(r), appSettings(r)];
  const config: Config = {
    appEnv,
    port,
    ...listenSettings(r, appEnv, port),
    baseUrl,
    authUrl,
    verifyUrl: r.url('VERIFY_URL', baseUrl),
    oauth: oauthSettings(r),
    ...databaseSettings(r),
    dataDir: resolve(r.str('DATA_DIR') ?? './data'),
    ...redisSettings(r),
    adminToken: r.token('ADMIN_TOKEN', 24),
    // The scraper's credential; unset, there is no /metrics.
    metricsToken: r.token('METRICS_TOKEN', 24),
    ...sms,
    testPhoneNumbers: testPhoneNumbers(r),
    smsDestinations: smsDestinations(r),
    smsBreaker,
    smsDailyLimit,
    challengeMode: r.oneOf<ChallengeMode>('CHALLENGE_MODE', ['off', 'breaker', 'always'], 'breaker'),
    challengeMaxNumber: r.integer(
      'CHALLENGE_MAX_NUMBER',
      250_000,
      1000,
      10_000_000,
      'a whole number from 1000 to 10000000',
    ),
    captcha: captchaSettings(r),
    simCheck: simCheckSettings(r),
    networkVerification: networkVerificationSettings(r),
    corsOrigins: corsOrigins(r),
    kycProvider,
    ...retentionSettings(r),
    // At least a day; a trail kept for no time is no trail.
    webhookAllowPrivateNetworks: r.bool('WEBHOOK_ALLOW_PRIVATE_NETWORKS', false),
    firstPartyClientId: r.str('FIRST_PARTY_CLIENT_ID') ?? 'callsign',
    ...secrets,
    enumerationProtection: r.bool('ENUMERATION_PROTECTION', false),
    defaultLanguage: r.oneOf<Language>('DEFAULT_LANGUAGE', LANGUAGES, 'en'),
    look,
    ...apps,
    attestation: attestationSettings(r, apps, appEnv === 'production'),
    ...signInSettings(r, authUrl, look.brand.name, apps.androidApps.map(androidOrigin)),
    trustProxy: trustProxySetting(r),
    logLevel: r.oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
    logFormat: r.oneOf('LOG_FORMAT', ['auto', 'json', 'pretty'], 'auto'),
    tracing:
      Boolean(r.str('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') ?? r.str('OTEL_EXPORTER_OTLP_ENDPOINT')) &&
      !r.bool('OTEL_SDK_DISABLED', false),
    roundTripCounts: r.bool('ROUND_TRIP_COUNTS', false),
    rateLimits,
    webConcurrency: webConcurrency(r),
    version: pkg.version,
  };
  r.problems.push(...productionProblems(config), ...autofillProblems(config.messaging.providers, apps));
  if (r.problems.length) throw new ConfigError(r.problems);
  return Object.freeze(config);
}

/** Fixed codes for test numbers, `+14155550100=000000,...`. */
function testPhoneNumbers(r: EnvReader): Map<string, string> {
  const numbers = new Map<string, string>();
  for (const pair of (r.str('TEST_PHONE_NUMBERS') ?? '').split(',').filter((p) => p.trim())) {
    const m = /^\s*(\+\d{6,15})\s*=\s*(\d{6})\s*$/.exec(pair);
    if (m) numbers.set(m[1], m[2]);
    else r.problems.push(`TEST_PHONE_NUMBERS entry "${pair.trim()}" must look like +14155550100=000000`);
  }
  return numbers;
}

/** HTTP worker processes: more than one needs PostgreSQL, since PGlite is one process's. */
function webConcurrency(r: EnvReader): number {
  const n = r.integer('WEB_CONCURRENCY', 1, 1, 64, 'a whole number from 1 to 64');
  const databaseUrl = r.str('DATABASE_URL');
  if (n > 1 && (!databaseUrl || databaseUrl === MEMORY_DATABASE_URL))
    r.problems.push('WEB_CONCURRENCY above 1 needs DATABASE_URL (PostgreSQL): PGlite belongs to one process');
  return n;
}

/**
 * Production refuses test numbers, the sandbox KYC provider, missing secrets, and the console SMS
 * provider (it would write one-time codes into the logs).
 */
function productionProblems(c: Config): string[] {
  if (c.appEnv !== 'production') return [];
  return [
    c.testPhoneNumbers.size ? 'TEST_PHONE_NUMBERS is not allowed when APP_ENV=production' : '',
    c.kycProvider === 'sandbox' ? 'KYC_PROVIDER=sandbox is not allowed when APP_ENV=production' : '',
    c.pinPepper ? '' : 'PIN_PEPPER is required when APP_ENV=production',
    c.keyEncryptionKey ? '' : 'KEY_ENCRYPTION_KEY is required when APP_ENV=production',
    c.messaging.providers.some((p) => p.type === 'console')
      ? 'SMS_PROVIDER=console (or a console provider) is not allowed when APP_ENV=production'
      : '',
    c.databaseUrl ? '' : 'DATABASE_URL is required when APP_ENV=production',
  ].filter(Boolean);
}

/**
 * What the start-up banner reminds the operator of: P107, a key-encryption fallback is a change under way,
 * not a setting to keep. Data it sealed stays readable only while it is set, and a leaked old key keeps
 * opening what was not sealed again. So is a PIN pepper fallback; a leaked old pepper protects the PINs
 * still hashed with it no more.
 */
export function configWarnings(config: Config): string[] {
  return [
    ...trustProxyWarnings(config.trustProxy, config.appEnv === 'production'),
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
