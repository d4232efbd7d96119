import { type Language, type MessageKey, RIGHT_TO_LEFT, translate } from '../../i18n/languages.ts';
import { esc } from './escape.ts';

/** Whose page it is: the client's name, logo and colour, or the instance's own. */
export interface Brand {
  name?: string;
  /** a path on this service */
  logo?: string;
  /** `#rrggbb`, adjusted for contrast by /assets/accent/ */
  accent?: string;
  /** where the name links to */
  link?: string;
}

/** What a hosted page is rendered in: its language and direction, its brand, and how to show it again. */
export interface View {
  lang: Language;
  dir: 'ltr' | 'rtl';
  /** the message in the page's language with its values filled, escaped for HTML */
  t(key: MessageKey, values?: Record<string, string | number>): string;
  /** a local URL that shows this page again, where the language menu returns to */
  back?: string;
  brand: Brand;
}

export function viewIn(lang: Language, back?: string, brand: Brand = {}): View {
  return {
    lang,
    dir: RIGHT_TO_LEFT.has(lang) ? 'rtl' : 'ltr',
    t: (key, values) => esc(translate(lang, key, values)),
    back,
    brand,
  };
}
