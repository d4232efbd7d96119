import { LANGUAGES } from '../../i18n/languages.ts';
import { esc } from './escape.ts';
import type { View } from './view.ts';

export { esc };

/** Each language in its own name, for the language menu. */
export const ENDONYMS: Record<(typeof LANGUAGES)[number], string> = {
  en: 'English',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
  fr: 'Français',
  hi: 'हिन्दी',
  id: 'Bahasa Indonesia',
  ar: 'العربية',
  sw: 'Kiswahili',
  tr: 'Türkçe',
  bn: 'বাংলা',
};

/**
 * The language menu: a plain GET form, so it works without JavaScript, on one line even on a 360-pixel screen
 * (each language named in itself, and the button). Its label, for screen readers, names it in the page's
 * language and, for anyone who does not read it, in English too.
 */
function languageMenu(v: View): string {
  const options = LANGUAGES.map(
    (l) => `<option value="${l}" lang="${l}"${l === v.lang ? ' selected' : ''}>${esc(ENDONYMS[l])}</option>`,
  ).join('');
  const label = v.lang === 'en' ? v.t('page.language') : `${v.t('page.language')} · Language`;
  return `<footer class="language"><form method="get" action="/language">${v.back ? hidden('back', v.back) : ''}<label for="language-menu" class="visually-hidden">${label}</label><select id="language-menu" name="lang">${options}</select><button type="submit" class="secondary">${v.t('page.change_language')}</button></form></footer>`;
}

/** Whose page it is, above its heading: the logo (served from here) and the name, linked to its site. */
function brandBar(v: View): string {
  const { name, logo, link } = v.brand;
  if (!name && !logo) return '';
  const img = logo ? `<img src="${esc(logo)}" alt="" width="48" height="48">` : '';
  const label = name ? `<strong>${esc(name)}</strong>` : '';
  const named =
    link && name ? `<a href="${esc(link)}" rel="noopener noreferrer" target="_blank">${label}</a>` : label;
  return `<div class="brand">${img}${named}</div>`;
}

/**
 * A server-rendered page in the view's language and direction, styled by the service's one stylesheet
 * (and the brand's colour, made readable by /assets/accent/). `title` and `body` are HTML already (the view's
 * messages come escaped); the security headers are the route's.
 */
export function page(v: View, title: string, body: string, head = ''): string {
  const accent = v.brand.accent
    ? `<link rel="stylesheet" href="/assets/accent/${v.brand.accent.slice(1)}.css">`
    : '';
  return `<!doctype html>
<html lang="${v.lang}" dir="${v.dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">${head}<title>${title}</title><link rel="stylesheet" href="/assets/callsign.css">${accent}</head>
<body><main class="card">${brandBar(v)}<h1>${title}</h1>${body}</main>${languageMenu(v)}</body></html>`;
}

/** An error about the whole form (HTML-safe text), read out as soon as the page shows. */
export const errorBox = (message: string | undefined) =>
  message ? `<p class="error" role="alert">${message}</p>` : '';

/** What a field shows beside its input: the rule up front, and the error when the last try broke it. */
export interface FieldNotes {
  hint?: string;
  error?: string;
}

/** A labelled input (its element id `id` where a page has two of one name); its hint and its error sit next to it and are tied to it for screen readers. */
export function field(label: string, name: string, attrs = '', notes: FieldNotes = {}, id = name): string {
  const hint = notes.hint ? `<p class="hint" id="${id}-hint">${notes.hint}</p>` : '';
  const error = notes.error ? `<p class="field-error" id="${id}-error" role="alert">${notes.error}</p>` : '';
  const described = [notes.hint && `${id}-hint`, notes.error && `${id}-error`].filter(Boolean).join(' ');
  const aria = `${described ? ` aria-describedby="${described}"` : ''}${notes.error ? ' aria-invalid="true"' : ''}`;
  return `<div class="field"><label for="${id}">${label}</label>${hint}<input id="${id}" name="${name}" ${attrs}${aria}>${error}</div>`;
}

/**
 * A phone number (or other left-to-right text) set inside a sentence of any language: isolated as
 * left-to-right, so a right-to-left sentence does not move its `+` or reorder its digits.
 */
export const ltr = (text: string) => `\u2066${text}\u2069`;

export const hidden = (name: string, value: string) =>
  `<input type="hidden" name="${name}" value="${esc(value)}">`;
