import { COUNTRIES } from '../../i18n/countries.ts';
import type { Language } from '../../i18n/languages.ts';

// Places with their own calling codes but no ISO 3166-1 code of their own.
const PHONE_ONLY = [
  ['AC', 'Ascension Island'],
  ['TA', 'Tristan da Cunha'],
  ['XK', 'Kosovo'],
] as const;
const ENGLISH = new Map<string, string>([...COUNTRIES.map((c) => [c.code, c.name] as const), ...PHONE_ONLY]);
const lists = new Map<Language, Map<string, string>>();

/**
 * Country names in a page's language. English comes from the service's own table; other languages from the
 * runtime's ICU data (Intl.DisplayNames), asked only once a page in that language lists countries, and kept.
 */
export function countryNames(lang: Language): ReadonlyMap<string, string> {
  if (lang === 'en') return ENGLISH;
  let names = lists.get(lang);
  if (!names) {
    const display = new Intl.DisplayNames([lang, 'en'], { type: 'region', fallback: 'code' });
    names = new Map([...ENGLISH].map(([code, english]) => [code, display.of(code) ?? english]));
    lists.set(lang, names);
  }
  return names;
}

/** Codes with their names, sorted as the language's readers sort. */
export function sortedCountries(lang: Language, codes: readonly string[]): [string, string][] {
  const names = countryNames(lang);
  const collator = new Intl.Collator(lang);
  return codes
    .map((code): [string, string] => [code, names.get(code) ?? code])
    .sort((a, b) => collator.compare(a[1], b[1]));
}
