import {
  type CountryCode,
  getCountries,
  getCountryCallingCode,
  getExampleNumber,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/mobile/examples';
import { isPhoneCountry } from '../../config/look-settings.ts';
import type { Language } from '../../i18n/languages.ts';
import { sortedCountries } from './country-names.ts';
import { esc, type FieldNotes } from './html.ts';
import type { View } from './view.ts';

/**
 * How the country writes a mobile number of its own, as a pattern for the page's as-you-type grouping: its
 * example number in national form, its national prefix left out, each digit an "x" ("(xxx) xxx-xxxx").
 */
function nationalPattern(code: CountryCode): string | undefined {
  const example = getExampleNumber(code, examples);
  if (!example) return undefined;
  let formatted = example.formatNational();
  const digitsOf = (s: string) => s.replace(/\D/g, '').length;
  while (digitsOf(formatted) > example.nationalNumber.length) formatted = formatted.replace(/^\D*\d/, '');
  return formatted.trim().replace(/\d/g, 'x');
}

const optionsByLanguage = new Map<Language, string>();

/**
 * Every country with phone numbers as the picker's options, sorted as the language's readers sort; made once
 * per language. The calling code comes first (kept left to right), so a narrow picker cuts the name, never the
 * code; no flag is in the text, where a phone without an emoji font would show boxes.
 */
function countryOptions(lang: Language): string {
  let options = optionsByLanguage.get(lang);
  if (!options) {
    options = sortedCountries(lang, getCountries())
      .map(([code, name]) => {
        const calling = `+${getCountryCallingCode(code as CountryCode)}`;
        const pattern = nationalPattern(code as CountryCode);
        const f = pattern ? ` data-f="${esc(pattern)}"` : '';
        return `<option value="${code}"${f}>${esc(`\u2066${calling}\u2069 ${name}`)}</option>`;
      })
      .join('');
    optionsByLanguage.set(lang, options);
  }
  return options;
}

/** The country the picker starts on: the browser's language's region (`hi-IN`), else DEFAULT_COUNTRY. */
export function suggestedCountry(
  languages: string[],
  fallback: CountryCode | undefined,
): CountryCode | undefined {
  for (const tag of languages) {
    const region = tag
      .split(/[-_]/)
      .find((part, i) => i > 0 && /^[A-Za-z]{2}$/.test(part))
      ?.toUpperCase();
    if (isPhoneCountry(region)) return region;
  }
  return fallback;
}

/**
 * The phone field: a native select of countries (calling code, name), so it works without JavaScript, beside
 * the number; the chosen country's flag beside it is decoration, drawn by the page's script only where the
 * browser draws flags. A number typed with `+` needs no country; one without is read in the chosen country.
 * Where passkeys sign in, the browser may offer them in the number's autofill too.
 */
export function phoneField(
  v: View,
  phone: string,
  picked: CountryCode | undefined,
  notes: FieldNotes & { passkeys?: boolean } = {},
) {
  const all = countryOptions(v.lang);
  // A number already typed in international form shows its own country.
  const typed =
    phone.trim().startsWith('+') && phone.length <= 40
      ? parsePhoneNumberFromString(phone)?.country
      : undefined;
  const country = typed ?? picked;
  const options = country
    ? all.replace(`<option value="${country}"`, `<option value="${country}" selected`)
    : all;
  const hint = `<p class="hint" id="phone-hint">${v.t('auth.phone_hint')}</p>`;
  const error = notes.error ? `<p class="field-error" id="phone-error" role="alert">${notes.error}</p>` : '';
  const described = `phone-hint${notes.error ? ' phone-error' : ''}`;
  return `<script src="/assets/phone.js" defer></script><div class="field"><label for="phone">${v.t('auth.phone')}</label>${hint}<div class="phone"><span class="flag" aria-hidden="true"></span><select id="country" name="country" aria-label="${v.t('auth.country')}" aria-describedby="phone-hint"><option value="">+</option>${options}</select><input id="phone" name="phone" type="tel" autocomplete="tel${notes.passkeys ? ' webauthn' : ''}" inputmode="tel" required value="${esc(phone)}" aria-describedby="${described}"${notes.error ? ' aria-invalid="true"' : ''}></div>${error}</div>`;
}
