import { type CountryCode, getCountries } from 'libphonenumber-js/max';
import type { EnvReader } from './env-reader.ts';
import { outboundUrlProblem } from './outbound-urls.ts';

/** The instance's own brand on pages that belong to no client (and where a client sets none). */
export interface InstanceBrand {
  /** BRAND_NAME */
  name: string | undefined;
  /** BRAND_LOGO_URL: fetched once at start, under the webhook URL rules, and served from here */
  logoUrl: string | undefined;
  /** BRAND_COLOR, `#rrggbb` */
  color: string | undefined;
}

/** How the hosted pages look and what they suggest. */
export interface LookSettings {
  /** DEFAULT_COUNTRY: the phone field's country when the browser's language names no region */
  defaultCountry: CountryCode | undefined;
  brand: InstanceBrand;
}

const PHONE_COUNTRIES: readonly string[] = getCountries();

export const isPhoneCountry = (code: string | undefined): code is CountryCode =>
  code !== undefined && PHONE_COUNTRIES.includes(code);

function defaultCountry(r: EnvReader): CountryCode | undefined {
  const country = r.str('DEFAULT_COUNTRY')?.toUpperCase();
  if (country === undefined || isPhoneCountry(country)) return country;
  r.problems.push(
    `DEFAULT_COUNTRY must be a country code with phone numbers, e.g. IN or BR (got "${country}")`,
  );
  return undefined;
}

function instanceBrand(r: EnvReader): InstanceBrand {
  let color = r.str('BRAND_COLOR');
  if (color !== undefined && !/^#[0-9a-fA-F]{6}$/.test(color)) {
    r.problems.push(`BRAND_COLOR must be a colour as #rrggbb (got "${color}")`);
    color = undefined;
  }
  let logoUrl = r.str('BRAND_LOGO_URL');
  const allowPrivate = r.bool('WEBHOOK_ALLOW_PRIVATE_NETWORKS', false);
  const problem =
    logoUrl === undefined ? undefined : outboundUrlProblem(logoUrl, 'BRAND_LOGO_URL', allowPrivate);
  if (problem) r.problems.push(problem);
  if (logoUrl !== undefined) logoUrl = problem ? undefined : new URL(logoUrl).toString();
  return { name: r.str('BRAND_NAME')?.slice(0, 100), logoUrl, color: color?.toLowerCase() };
}

export function lookSettings(r: EnvReader): LookSettings {
  return { defaultCountry: defaultCountry(r), brand: instanceBrand(r) };
}
