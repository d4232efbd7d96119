import { type Language, type MessageKey, RIGHT_TO_LEFT, translate } from '../../i18n/languages.ts';
import { esc } from './html.ts';

/** What a hosted page is rendered in: its language and direction, and how to show it again in another. */
export interface View {
  lang: Language;
  dir: 'ltr' | 'rtl';
  /** the message in the page's language with its values filled, escaped for HTML */
  t(key: MessageKey, values?: Record<string, string | number>): string;
  /** a local URL that shows this page again, where the language menu returns to */
  back?: string;
}

export function viewIn(lang: Language, back?: string): View {
  return {
    lang,
    dir: RIGHT_TO_LEFT.has(lang) ? 'rtl' : 'ltr',
    t: (key, values) => esc(translate(lang, key, values)),
    back,
  };
}
