import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../composition/container.ts';
import { safeEqual } from '../../domain/crypto.ts';
import { decideLogout, logoutRedirect } from '../../domain/oauth/logout.ts';
import {
  CSRF_COOKIE,
  crossSiteFormPost,
  formAsQuery,
  pageCookie,
  pageCookieOf,
  SSO_COOKIE,
} from '../cookies/page-cookies.ts';
import { described, pageForm } from '../described.ts';
import { errorPage, logoutConfirmPage, signedOutPage } from '../pages/consent-pages.ts';
import { viewOf } from '../pages/page-language.ts';
import { sendPage } from '../pages/page-reply.ts';
import { formTarget } from './page-forms.ts';

/** The services these routes use. */
type Services = Pick<Container, 'authorization' | 'clients' | 'config' | 'logos' | 'random' | 'tokens'>;

/** The parameters of OIDC RP-Initiated Logout 1.0 §2 that a cross-site form post is sent on with. */
const LOGOUT_PARAMS = [
  'id_token_hint',
  'post_logout_redirect_uri',
  'state',
  'client_id',
  'logout_hint',
  'ui_locales',
];

/** The fields of a body that is an object (a parsed form or JSON object); none for anything else. */
function fieldsOf(body: unknown): Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? { ...body } : {};
}

/** The logout request's parameters, checked by the rule (domain/oauth/logout.ts), not by a schema. */
const logoutParams = described({
  id_token_hint: 'an ID token this client was given: names the user the client expects to sign out',
  post_logout_redirect_uri: "where to go afterwards: one of the client's registered addresses",
  state: 'returned on that redirect',
  client_id: 'the client asking',
  logout_hint: 'ignored',
  ui_locales: 'ignored',
});

/**
 * OIDC RP-Initiated Logout under /authorize, so that the single sign-on cookie (Path=/authorize) comes with
 * it: GET or a form POST of the client's, and the confirmation the page asks for when the request alone
 * may not end the sign-on (domain/oauth/logout.ts).
 */
export function logoutRoutes(
  fastify: FastifyInstance,
  c: Services,
  limit: (r: FastifyRequest) => Promise<void>,
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const cookie = (name: string, value: string, maxAge: number) =>
    pageCookie(c.config.authUrl, name, value, maxAge);

  const view = (request: FastifyRequest) => viewOf(request, c);
  const endSignOn = async (request: FastifyRequest, reply: FastifyReply) => {
    await c.authorization.endSso(pageCookieOf(request, c.config.authUrl, SSO_COOKIE));
    // A new CSRF token too: every form sealed for this browser before the sign-out is then void.
    reply.header('Set-Cookie', [cookie(SSO_COOKIE, '', 0), cookie(CSRF_COOKIE, c.random.token(32), 3600)]);
  };

  const logout = async (request: FastifyRequest, reply: FastifyReply, params: Record<string, unknown>) => {
    await limit(request);
    if (crossSiteFormPost(request)) {
      const known = Object.entries(params).filter(([name]) => LOGOUT_PARAMS.includes(name));
      return reply.redirect(`/authorize/logout?${formAsQuery(Object.fromEntries(known))}`, 303);
    }
    const sso = await c.authorization.ssoUser(pageCookieOf(request, c.config.authUrl, SSO_COOKIE));
    const decision = await decideLogout(params, sso?.userId, {
      idTokenHint: (token) => c.tokens.idTokenHint(token),
      findClient: (id) => c.clients.findClient(id),
    });
    if (decision.kind === 'confirm') {
      let csrf = pageCookieOf(request, c.config.authUrl, CSRF_COOKIE);
      if (!csrf) {
        csrf = c.random.token(32);
        reply.header('Set-Cookie', cookie(CSRF_COOKIE, csrf, 3600));
      }
      // The form may lead on to the client's own address, after the user confirms.
      const back = decision.afterwards;
      const formTo = back ? { formTarget: formTarget(back.uri) } : {};
      return sendPage(reply, 200, logoutConfirmPage(view(request), csrf, back), formTo);
    }
    await endSignOn(request, reply);
    if (decision.redirect)
      return reply.header('Referrer-Policy', 'no-referrer').redirect(decision.redirect, 302);
    return sendPage(reply, 200, signedOutPage(view(request)));
  };
  app.get('/authorize/logout', { schema: { hide: true, querystring: logoutParams } }, (request, reply) =>
    logout(request, reply, request.query),
  );
  // A client's form post may come without a body at all: no parameters, as a GET without a query.
  app.post('/authorize/logout', { schema: { hide: true } }, (request, reply) =>
    logout(request, reply, fieldsOf(request.body)),
  );

  // The user's own "Sign out" on the confirmation page: the CSRF double-submit must match.
  const confirmForm = {
    schema: { hide: true, body: pageForm('client_id', 'post_logout_redirect_uri', 'return_state') },
  };
  app.post('/authorize/logout/confirm', confirmForm, async (request, reply) => {
    await limit(request);
    const csrf = pageCookieOf(request, c.config.authUrl, CSRF_COOKIE);
    const sent = request.body?.csrf;
    if (!csrf || sent === undefined || !safeEqual(csrf, sent))
      return sendPage(reply, 400, errorPage(view(request), 'error.form_expired'));
    await endSignOn(request, reply);
    // The way back the confirmation page carried, checked again against the client's registered addresses.
    const { client_id: clientId, post_logout_redirect_uri: uri, return_state: state } = request.body ?? {};
    const back = clientId && uri ? { clientId, uri, state } : undefined;
    const redirect = await logoutRedirect(back, { findClient: (id) => c.clients.findClient(id) });
    if (redirect) return reply.header('Referrer-Policy', 'no-referrer').redirect(redirect, 302);
    return sendPage(reply, 200, signedOutPage(view(request)));
  });
}
