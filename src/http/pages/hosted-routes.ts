import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { serialize } from 'cookie';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { LANGUAGES, supported } from '../../i18n/languages.ts';
import { PageError, pageErrorHandler } from '../errors/pages.ts';
import { accentStylesheet } from './accent.ts';
import { LOCAL_TIME_SCRIPT } from './assets/local-time-script.ts';
import { NETWORK_RETURN_SCRIPT } from './assets/network-return-script.ts';
import { PASSKEY_SCRIPT } from './assets/passkey-script.ts';
import { PHONE_SCRIPT } from './assets/phone-script.ts';
import { RESEND_SCRIPT } from './assets/resend-script.ts';
import { STYLESHEET } from './assets/stylesheet.ts';
import { WEBOTP_SCRIPT } from './assets/webotp-script.ts';
import { errorPagesIn } from './consent-pages.ts';
import { page } from './html.ts';
import { localPath, MAX_BACK_LENGTH } from './local-path.ts';
import { LANGUAGE_COOKIE, viewOf } from './page-language.ts';
import { sendPage } from './page-reply.ts';
import { viewIn } from './view.ts';

/** The services these routes use. */
type Services = Pick<Container, 'config' | 'logos'>;

const YEAR_SECONDS = 365 * 24 * 3600;

/** @simplewebauthn/browser's browser bundle (a global `SimpleWebAuthnBrowser`), read once from the package. */
const WEBAUTHN_LIBRARY = readFileSync(
  join(
    dirname(createRequire(import.meta.url).resolve('@simplewebauthn/browser')),
    '..',
    'dist',
    'bundle',
    'index.umd.min.js',
  ),
  'utf8',
);

const languageQuery = Type.Object({
  lang: Type.String({ maxLength: 35, description: `one of ${LANGUAGES.join(', ')}` }),
  back: Type.Optional(
    Type.String({ maxLength: MAX_BACK_LENGTH, description: 'a path on this service to show again' }),
  ),
});

const hexParam = Type.Object({ hex: Type.String({ pattern: '^[0-9a-f]{6}\\.css$' }) });
const logoParam = Type.Object({ name: Type.String({ maxLength: 40 }) });

/** A brand's colour made readable, and the logos fetched once: both named by content, so cached for good. */
function brandAssets(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const forGood = 'public, max-age=31536000, immutable';
  app.get('/assets/accent/:hex', { schema: { hide: true, params: hexParam } }, async (request, reply) =>
    reply
      .header('Content-Type', 'text/css; charset=utf-8')
      .header('Cache-Control', forGood)
      .send(accentStylesheet(`#${request.params.hex.slice(0, 6)}`)),
  );
  app.get('/assets/logos/:name', { schema: { hide: true, params: logoParam } }, async (request, reply) => {
    const logo = await c.logos.find(request.params.name);
    if (!logo) throw new PageError(404, 'error.malformed');
    return reply
      .header('Content-Type', 'image/webp')
      .header('Cache-Control', forGood)
      .header('X-Content-Type-Options', 'nosniff')
      .send(logo);
  });
}

/** What every hosted page loads from the service: its stylesheet, its small scripts, its language menu. */
export function hostedRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // A request for an asset or the menu that is not one (no language, an unknown logo) gets a page, like
  // every hosted page.
  app.setErrorHandler(
    pageErrorHandler(sendPage, (request) => errorPagesIn(viewOf(request, c)), 'hosted asset'),
  );
  const asset = (path: string, type: string, body: string) =>
    app.get(path, { schema: { hide: true } }, async (_request, reply) =>
      reply.header('Content-Type', type).header('Cache-Control', 'public, max-age=86400').send(body),
    );
  asset('/assets/callsign.css', 'text/css; charset=utf-8', STYLESHEET);
  asset('/assets/webotp.js', 'text/javascript; charset=utf-8', WEBOTP_SCRIPT);
  asset('/assets/phone.js', 'text/javascript; charset=utf-8', PHONE_SCRIPT);
  asset('/assets/resend.js', 'text/javascript; charset=utf-8', RESEND_SCRIPT);
  asset('/assets/passkey.js', 'text/javascript; charset=utf-8', PASSKEY_SCRIPT);
  asset('/assets/local-time.js', 'text/javascript; charset=utf-8', LOCAL_TIME_SCRIPT);
  asset('/assets/network-return.js', 'text/javascript; charset=utf-8', NETWORK_RETURN_SCRIPT);
  asset('/assets/webauthn.js', 'text/javascript; charset=utf-8', WEBAUTHN_LIBRARY);
  brandAssets(app, c);

  // The language menu's answer: the pick is kept in a cookie and the page is shown again in it. A `back` that
  // would leave this service is not followed: the menu's own page says to go back instead.
  app.get('/language', { schema: { hide: true, querystring: languageQuery } }, async (request, reply) => {
    const lang = supported(request.query.lang);
    if (!lang) throw new PageError(400, 'error.malformed');
    const back = localPath(request.query.back);
    reply.header(
      'Set-Cookie',
      serialize(LANGUAGE_COOKIE, lang, {
        httpOnly: true,
        secure: c.config.authUrl.startsWith('https:'),
        sameSite: 'lax',
        path: '/',
        maxAge: YEAR_SECONDS,
      }),
    );
    if (back) return reply.header('Cache-Control', 'no-store').redirect(back, 303);
    const v = viewIn(lang);
    return sendPage(reply, 200, page(v, v.t('page.language'), `<p>${v.t('auth.go_back')}</p>`));
  });
}
