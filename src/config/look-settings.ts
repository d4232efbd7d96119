import { type CountryCode, getCountries } from 'libphonenumber-js/max';
import type { EnvReader } from './env-reader.ts';

/** How the hosted pages look and what they suggest. */
export interface LookSettings {
  /** DEFAULT_COUNTRY: the phone field's country when the browser's language names no region */
  defaultCountry: CountryCode | undefined;
}

const PHONE_COUNTRIES: readonly string[] = getCountries();

export const isPhoneCountry = (code: string | undefined): code is CountryCode =>
  code !== undefined && PHONE_COUNTRIES.includes(code);

export function lookSettings(r: EnvReader): LookSettings {
  const country = r.str('DEFAULT_COUNTRY')?.toUpperCase();
  if (country !== undefined && !isPhoneCountry(country)) {
    r.problems.push(
      `DEFAULT_COUNTRY must be a country code with phone numbers, e.g. IN or BR (got "${country}")`,
    );
    return { defaultCountry: undefined };
  }
  return { defaultCountry: country };
}
