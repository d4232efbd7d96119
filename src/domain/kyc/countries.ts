// ISO 3166-1 alpha-2: the 249 officially assigned codes with their English short names, sorted by name,
// for the verification page's list. Written out (countries.json) rather than asked of Intl.DisplayNames,
// whose ICU data would cost every process about 10 MB of memory.
import NAMES from './countries.json' with { type: 'json' };

export const COUNTRIES: readonly { code: string; name: string }[] = Object.entries(NAMES).map(
  ([code, name]) => ({
    code,
    name,
  }),
);

export const COUNTRY_CODES: readonly string[] = COUNTRIES.map((c) => c.code);
