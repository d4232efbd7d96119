import type { FastifyRequest } from 'fastify';
import type { Container } from '../../composition/container.ts';
import { acceptedLanguages, type Language, pickLanguage } from '../../i18n/languages.ts';
import { cookieOf } from '../cookies/page-cookies.ts';
import { type View, viewIn } from './view.ts';

/** The language the person picked in a page's menu, kept for a year on every hosted page of this origin. */
export const LANGUAGE_COOKIE = 'callsign_lang';

/** What else a page knows of the person's language. */
export interface LanguageWishes {
  /** OIDC `ui_locales`: the client's wishes, space-separated, most wanted first */
  uiLocales?: string;
  /** the signed-in account's own `language` */
  account?: string | null;
}

/**
 * A hosted page's language: the person's own pick in the menu, then the client's `ui_locales` (the first one
 * spoken here), then the account's language, then the browser's Accept-Language, then DEFAULT_LANGUAGE.
 */
export function pageLanguage(request: FastifyRequest, fallback: Language, wishes: LanguageWishes = {}) {
  return pickLanguage(
    [
      cookieOf(request, LANGUAGE_COOKIE),
      ...(wishes.uiLocales?.split(' ').slice(0, 10) ?? []),
      wishes.account,
      ...acceptedLanguages(request.headers['accept-language']),
    ],
    fallback,
  );
}

/** What every hosted page knows of the service: its default language and its own brand. */
export type PageSite = Pick<Container, 'config' | 'logos'>;

/**
 * The view a hosted page is rendered in, under the instance's brand. The language menu shows the page again
 * at `back`; a GET can be shown again at its own URL, a form's answer only where its route says.
 */
export function viewOf(
  request: FastifyRequest,
  site: PageSite,
  wishes: LanguageWishes = {},
  back: string | undefined = request.method === 'GET' ? request.url : undefined,
): View {
  const { name, color } = site.config.look.brand;
  const brand = { name, accent: color, logo: site.logos.instanceLogo };
  return viewIn(pageLanguage(request, site.config.defaultLanguage, wishes), back, brand);
}
