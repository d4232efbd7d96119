// The spec's "Limits" table and D28: every limit is named, counted against one thing, and overridable
// by the operator through RATE_LIMITS (`name=count/seconds,...`), because a benchmark from one address
// must be able to raise them.
export interface RateLimitRule {
  limit: number;
  windowSeconds: number;
}

export const DEFAULT_RATE_LIMITS = {
  otp_send_phone: { limit: 3, windowSeconds: 3600 },
  otp_send_address: { limit: 10, windowSeconds: 3600 },
  // not in the spec: codes sent to one block of 1,000 consecutive numbers (SMS pumping walks a range)
  otp_send_prefix: { limit: 10, windowSeconds: 3600 },
  // not in the spec: codes to a country whose SMS breaker is open (SMS_BREAKER's open_cap sets it)
  otp_send_country_open: { limit: 200, windowSeconds: 3600 },
  // not in the spec: text messages a UTC day across all countries (SMS_DAILY_LIMIT sets it; unset, no limit)
  sms_daily: { limit: Number.MAX_SAFE_INTEGER, windowSeconds: 86_400 },
  signin_phone: { limit: 5, windowSeconds: 900 },
  signin_address: { limit: 50, windowSeconds: 900 },
  // not in the spec: new sets of recovery codes per account (each set replaces the one before)
  recovery_codes_user: { limit: 5, windowSeconds: 3600 },
  handle_check_address: { limit: 30, windowSeconds: 60 },
  rest_user: { limit: 100, windowSeconds: 60 },
  rest_address: { limit: 100, windowSeconds: 60 },
  oauth_token_client: { limit: 300, windowSeconds: 60 },
  oauth_authorize_address: { limit: 60, windowSeconds: 60 },
  // not in the spec: failed client authentications at the token, revocation and introspection endpoints
  oauth_client_auth_failures_address: { limit: 20, windowSeconds: 60 },
  // not in the spec: registrations of clients by themselves, and what a registration's token is tried
  client_registration_address: { limit: 10, windowSeconds: 3600 },
  // not in the spec: wrong user codes typed on the device verification page (RFC 8628 §5.1)
  device_user_code_address: { limit: 5, windowSeconds: 900 },
  // not in the spec: a resource server may ask about every request it serves
  oauth_introspect_client: { limit: 1200, windowSeconds: 60 },
  // not in the spec: a receiver's calls to the Shared Signals endpoints (streams, status, verification, polls)
  ssf_client: { limit: 600, windowSeconds: 60 },
  // not in the spec: the verification page takes uploads of up to 30 MB a post
  verify_page_address: { limit: 30, windowSeconds: 60 },
  // not in the spec: /api/v1 per address (every request), per user token, per server API key
  api_v1_address: { limit: 600, windowSeconds: 60 },
  api_v1_user: { limit: 300, windowSeconds: 60 },
  api_v1_key: { limit: 1200, windowSeconds: 60 },
  // not in the spec: guesses of the admin token on the console's sign-in form
  console_signin_address: { limit: 10, windowSeconds: 900 },
} satisfies Record<string, RateLimitRule>;

export type RateLimitName = keyof typeof DEFAULT_RATE_LIMITS;
export type RateLimits = Record<RateLimitName, RateLimitRule>;

/**
 * In development (APP_ENV=development), the limits on codes sent are this many times looser, so that trying the
 * pages for an afternoon does not run out; RATE_LIMITS still overrides them. Every other APP_ENV (production,
 * staging, and `test`, the test suite's development) keeps the contract's.
 */
export const DEVELOPMENT_CODE_LIMIT_FACTOR = 10;
const LOOSER_IN_DEVELOPMENT = ['otp_send_phone', 'otp_send_address'] as const satisfies RateLimitName[];

/**
 * Parses `name=count/seconds,...` over the defaults of `appEnv`; returns the problems found so config can
 * report them all at once.
 */
export function parseRateLimits(
  raw: string | undefined,
  appEnv = 'production',
): { limits: RateLimits; problems: string[] } {
  const limits: RateLimits = structuredClone(DEFAULT_RATE_LIMITS);
  if (appEnv === 'development')
    for (const name of LOOSER_IN_DEVELOPMENT) limits[name].limit *= DEVELOPMENT_CODE_LIMIT_FACTOR;
  const problems: string[] = [];
  if (!raw?.trim()) return { limits, problems };
  for (const part of raw.split(',')) {
    const m = /^\s*([a-z0-9_]+)\s*=\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(part);
    if (!m || !(m[1] in limits) || Number(m[2]) < 1 || Number(m[3]) < 1) {
      problems.push(
        `"${part.trim()}" is not name=count/seconds with a known name (${Object.keys(limits).join(', ')})`,
      );
      continue;
    }
    limits[m[1] as RateLimitName] = { limit: Number(m[2]), windowSeconds: Number(m[3]) };
  }
  return { limits, problems };
}
