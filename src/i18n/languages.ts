// The languages Callsign speaks, and how a request's wishes pick one.
import { IntlMessageFormat } from 'intl-messageformat';
import { ar } from './catalogs/ar.ts';
import { arPages } from './catalogs/ar-pages.ts';
import { arVerify } from './catalogs/ar-verify.ts';
import { bn } from './catalogs/bn.ts';
import { bnPages } from './catalogs/bn-pages.ts';
import { bnVerify } from './catalogs/bn-verify.ts';
import { en } from './catalogs/en.ts';
import { enPages } from './catalogs/en-pages.ts';
import { enVerify } from './catalogs/en-verify.ts';
import { es } from './catalogs/es.ts';
import { esPages } from './catalogs/es-pages.ts';
import { esVerify } from './catalogs/es-verify.ts';
import { fr } from './catalogs/fr.ts';
import { frPages } from './catalogs/fr-pages.ts';
import { frVerify } from './catalogs/fr-verify.ts';
import { hi } from './catalogs/hi.ts';
import { hiPages } from './catalogs/hi-pages.ts';
import { hiVerify } from './catalogs/hi-verify.ts';
import { id } from './catalogs/id.ts';
import { idPages } from './catalogs/id-pages.ts';
import { idVerify } from './catalogs/id-verify.ts';
import { ptBR } from './catalogs/pt-BR.ts';
import { ptBRPages } from './catalogs/pt-BR-pages.ts';
import { ptBRVerify } from './catalogs/pt-BR-verify.ts';
import { sw } from './catalogs/sw.ts';
import { swPages } from './catalogs/sw-pages.ts';
import { swVerify } from './catalogs/sw-verify.ts';
import { tr } from './catalogs/tr.ts';
import { trPages } from './catalogs/tr-pages.ts';
import { trVerify } from './catalogs/tr-verify.ts';

/** The English source of every message: what phones are sent, the sign-in pages, the verification page. */
export const SOURCE = { ...en, ...enPages, ...enVerify };
export type MessageKey = keyof typeof SOURCE;
export type Catalog = Record<MessageKey, string>;

export const CATALOGS = {
  en: SOURCE,
  es: { ...es, ...esPages, ...esVerify },
  'pt-BR': { ...ptBR, ...ptBRPages, ...ptBRVerify },
  fr: { ...fr, ...frPages, ...frVerify },
  hi: { ...hi, ...hiPages, ...hiVerify },
  id: { ...id, ...idPages, ...idVerify },
  ar: { ...ar, ...arPages, ...arVerify },
  sw: { ...sw, ...swPages, ...swVerify },
  tr: { ...tr, ...trPages, ...trVerify },
  bn: { ...bn, ...bnPages, ...bnVerify },
} satisfies Record<string, Catalog>;
export type Language = keyof typeof CATALOGS;
export const LANGUAGES = Object.keys(CATALOGS) as Language[];

/** The languages written right to left. */
export const RIGHT_TO_LEFT: ReadonlySet<Language> = new Set(['ar']);

/** The supported language a BCP 47 tag asks for: the same tag, else the same language (`pt-PT` → `pt-BR`). */
export function supported(tag: string | undefined | null): Language | undefined {
  if (!tag || tag.length > 35) return undefined;
  const lower = tag.trim().toLowerCase();
  const exact = LANGUAGES.find((l) => l.toLowerCase() === lower);
  if (exact) return exact;
  const primary = lower.split(/[-_]/)[0];
  return LANGUAGES.find((l) => l.toLowerCase().split('-')[0] === primary);
}

/** The tags of an Accept-Language header, most wanted first (q=0 left out). */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = Number(
        params
          .find((p) => p.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? 1,
      );
      return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((l) => l.tag && l.tag !== '*' && l.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((l) => l.tag);
}

/** The first of the wishes, in order, that Callsign speaks; else the fallback. */
export function pickLanguage(wishes: Array<string | undefined | null>, fallback: Language): Language {
  for (const wish of wishes) {
    const language = supported(wish);
    if (language) return language;
  }
  return fallback;
}

const formats = new Map<string, IntlMessageFormat>();

/** The message in the language, its placeholders filled. */
export function translate(
  language: Language,
  key: MessageKey,
  values: Record<string, string | number> = {},
): string {
  const cacheKey = `${language}\u0000${key}`;
  let format = formats.get(cacheKey);
  if (!format) {
    format = new IntlMessageFormat(CATALOGS[language][key], language);
    formats.set(cacheKey, format);
  }
  return String(format.format(values));
}
