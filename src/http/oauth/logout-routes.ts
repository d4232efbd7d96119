import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../container.ts';
import { safeEqual } from '../../domain/crypto.ts';
import { decideLogout } from '../../domain/oauth/logout.ts';
import { errorPage, logoutConfirmPage, signedOutPage } from '../pages/authorize-pages.ts';
import { sendPage } from '../pages/page-reply.ts';
import {
  CSRF_COOKIE,
  cookieOf,
  crossSiteFormPost,
  formAsQuery,
  pageCookie,
  SSO_COOKIE,
} from './page-cookies.ts';

/** The parameters of OIDC RP-Initiated Logout 1.0 §2 that a cross-site form post is sent on with. */
const LOGOUT_PARAMS = [
  'id_token_hint',
  'post_logout_redirect_uri',
  'state',
  'client_id',
  'logout_hint',
  'ui_locales',
];

/**
 * OIDC RP-Initiated Logout under /authorize, so that the single sign-on cookie (Path=/authorize) comes with
 * it: GET or a form POST of the client's, and the confirmation the page asks for when the request alone
 * may not end the sign-on (domain/oauth/logout.ts).
 */
export function logoutRoutes(
  app: FastifyInstance,
  c: Container,
  limit: (r: FastifyRequest) => Promise<void>,
) {
  const cookie = (name: string, value: string, maxAge: number) =>
    pageCookie(c.config.authUrl, name, value, maxAge);

  const endSignOn = async (request: FastifyRequest, reply: FastifyReply) => {
    await c.authorization.endSso(cookieOf(request, SSO_COOKIE));
    reply.header('Set-Cookie', cookie(SSO_COOKIE, '', 0));
  };

  const logout = async (request: FastifyRequest, reply: FastifyReply) => {
    await limit(request);
    const params = (request.method === 'GET' ? request.query : (request.body ?? {})) as Record<
      string,
      unknown
    >;
    if (crossSiteFormPost(request)) {
      const known = Object.entries(params).filter(([name]) => LOGOUT_PARAMS.includes(name));
      return reply.redirect(`/authorize/logout?${formAsQuery(Object.fromEntries(known))}`, 303);
    }
    const sso = await c.authorization.ssoUser(cookieOf(request, SSO_COOKIE));
    const decision = await decideLogout(params, sso?.userId, {
      idTokenHint: (token) => c.tokens.idTokenHint(token),
      findClient: (id) => c.clients.findClient(id),
    });
    if (decision.kind === 'confirm') {
      let csrf = cookieOf(request, CSRF_COOKIE);
      if (!csrf) {
        csrf = c.random.token(32);
        reply.header('Set-Cookie', cookie(CSRF_COOKIE, csrf, 3600));
      }
      return sendPage(reply, 200, logoutConfirmPage(csrf));
    }
    await endSignOn(request, reply);
    if (decision.redirect)
      return reply.header('Referrer-Policy', 'no-referrer').redirect(decision.redirect, 302);
    return sendPage(reply, 200, signedOutPage());
  };
  app.get('/authorize/logout', { schema: { hide: true } }, logout);
  app.post('/authorize/logout', { schema: { hide: true } }, logout);

  // The user's own "Sign out" on the confirmation page: the CSRF double-submit must match.
  app.post('/authorize/logout/confirm', { schema: { hide: true } }, async (request, reply) => {
    await limit(request);
    const csrf = cookieOf(request, CSRF_COOKIE);
    const sent = (request.body as Record<string, unknown> | undefined)?.csrf;
    if (!csrf || typeof sent !== 'string' || !safeEqual(csrf, sent))
      return sendPage(reply, 400, errorPage('This form has expired or did not come from this page.'));
    await endSignOn(request, reply);
    return sendPage(reply, 200, signedOutPage());
  });
}
