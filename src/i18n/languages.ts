// The languages Callsign speaks, and how a request's wishes pick one.
import { IntlMessageFormat } from 'intl-messageformat';
import { ar } from './catalogs/ar.ts';
import { bn } from './catalogs/bn.ts';
import { type Catalog, en, type MessageKey } from './catalogs/en.ts';
import { es } from './catalogs/es.ts';
import { fr } from './catalogs/fr.ts';
import { hi } from './catalogs/hi.ts';
import { id } from './catalogs/id.ts';
import { ptBR } from './catalogs/pt-BR.ts';
import { sw } from './catalogs/sw.ts';
import { tr } from './catalogs/tr.ts';

export const CATALOGS = { en, es, 'pt-BR': ptBR, fr, hi, id, ar, sw, tr, bn } satisfies Record<
  string,
  Catalog
>;
export type Language = keyof typeof CATALOGS;
export const LANGUAGES = Object.keys(CATALOGS) as Language[];

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
