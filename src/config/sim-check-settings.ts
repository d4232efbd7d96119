// Whether and how a code to a number is checked against the number's SIM swaps and recycling first.
//
// Rules it enforces (at start, every problem named):
// - SIM_CHECK_PROVIDER is none (the default), camara, twilio or http, and the chosen one has every setting it
//   needs: CAMARA_API_ROOT, CAMARA_TOKEN_URL, CAMARA_CLIENT_ID and CAMARA_CLIENT_SECRET; TWILIO_ACCOUNT_SID and
//   TWILIO_AUTH_TOKEN; SIM_CHECK_HTTP_URL.
// - NUMBER_RECYCLING_CHECK=true needs a provider that answers it (camara or http; Twilio has no such check).
// - SIM_CHECK_COUNTRIES are ISO 3166-1 alpha-2 codes; unset, every country is checked.
// - SIM_SWAP_MAX_AGE is a whole number of hours, 1-2400 (default 168, a week).
import { COUNTRY_CODES } from '../i18n/countries.ts';
import type { EnvReader } from './env-reader.ts';

export type SimCheckProviderSettings =
  | { kind: 'camara'; apiRoot: string; tokenUrl: string; clientId: string; clientSecret: string }
  | { kind: 'twilio'; lookupUrl: string; accountSid: string; authToken: string }
  | { kind: 'http'; url: string };

export interface SimCheckSettings {
  /** SIM_CHECK_PROVIDER; undefined: no check */
  provider?: SimCheckProviderSettings;
  /** SIM_CHECK_COUNTRIES; undefined: every country */
  countries?: ReadonlySet<string>;
  /** SIM_SWAP_MAX_AGE: a swap this recent (hours) stops a code step */
  swapMaxAgeHours: number;
  /** NUMBER_RECYCLING_CHECK */
  recyclingCheck: boolean;
  /** SIM_CHECK_FAIL=closed: an unknown answer refuses the step */
  failClosed: boolean;
}

const PROVIDERS = ['none', 'camara', 'twilio', 'http'] as const;
const DEFAULT_SWAP_HOURS = 168;

function providerSettings(r: EnvReader): SimCheckProviderSettings | undefined {
  const kind = r.oneOf('SIM_CHECK_PROVIDER', PROVIDERS, 'none');
  const why = `SIM_CHECK_PROVIDER=${kind}`;
  if (kind === 'camara') {
    const v = r.required(
      ['CAMARA_API_ROOT', 'CAMARA_TOKEN_URL', 'CAMARA_CLIENT_ID', 'CAMARA_CLIENT_SECRET'],
      why,
    );
    return {
      kind,
      apiRoot: v.CAMARA_API_ROOT && r.url('CAMARA_API_ROOT', 'https://camara.invalid'),
      tokenUrl: v.CAMARA_TOKEN_URL && r.url('CAMARA_TOKEN_URL', 'https://camara.invalid'),
      clientId: v.CAMARA_CLIENT_ID,
      clientSecret: v.CAMARA_CLIENT_SECRET,
    };
  }
  if (kind === 'twilio') {
    const v = r.required(['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN'], why);
    const lookupUrl = r.url('TWILIO_LOOKUP_URL', 'https://lookups.twilio.com');
    return { kind, lookupUrl, accountSid: v.TWILIO_ACCOUNT_SID, authToken: v.TWILIO_AUTH_TOKEN };
  }
  if (kind === 'http') {
    const v = r.required(['SIM_CHECK_HTTP_URL'], why);
    return { kind, url: v.SIM_CHECK_HTTP_URL && r.url('SIM_CHECK_HTTP_URL', 'https://sim-check.invalid') };
  }
  return undefined;
}

function countries(r: EnvReader): Set<string> | undefined {
  const listed = r.list('SIM_CHECK_COUNTRIES');
  if (!listed) return undefined;
  for (const code of listed)
    if (!COUNTRY_CODES.includes(code))
      r.problems.push(`SIM_CHECK_COUNTRIES: "${code}" is not an ISO 3166-1 alpha-2 country code`);
  return new Set(listed);
}

export function simCheckSettings(r: EnvReader): SimCheckSettings {
  const provider = providerSettings(r);
  const recyclingCheck = r.bool('NUMBER_RECYCLING_CHECK', false);
  if (recyclingCheck && provider?.kind !== 'camara' && provider?.kind !== 'http')
    r.problems.push(
      'NUMBER_RECYCLING_CHECK=true needs SIM_CHECK_PROVIDER=camara or http (Twilio has no recycling check)',
    );
  return {
    provider,
    countries: countries(r),
    swapMaxAgeHours: r.integer(
      'SIM_SWAP_MAX_AGE',
      DEFAULT_SWAP_HOURS,
      1,
      2400,
      'a whole number of hours, 1-2400',
    ),
    recyclingCheck,
    failClosed: r.oneOf('SIM_CHECK_FAIL', ['open', 'closed'], 'open') === 'closed',
  };
}
