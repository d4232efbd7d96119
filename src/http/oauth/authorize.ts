import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../composition/container.ts';
import type { RateLimitName } from '../../config/rate-limits.ts';
import { parsePhoneIn } from '../../domain/phone.ts';
import { crossSiteFormPost, formAsQuery } from '../cookies/page-cookies.ts';
import { described, pageForm } from '../described.ts';
import { formProblem } from '../errors/page-messages.ts';
import { PageError, pageErrorHandler } from '../errors/pages.ts';
import { htmlPage, redirect } from '../openapi-types.ts';
import { signInPage } from '../pages/authorize-pages.ts';
import { errorPage, errorPagesIn } from '../pages/consent-pages.ts';
import { viewOf } from '../pages/page-language.ts';
import { authorizationStart } from './authorization-start.ts';
import { type PageFlow, pageFlow } from './authorization-steps.ts';
import { codeRoutes } from './code-routes.ts';
import { deviceRoutes } from './device-routes.ts';
import { signedInStill } from './live-sign-on.ts';
import { logoutRoutes } from './logout-routes.ts';
import { networkCallbackRoutes } from './network-routes.ts';
import { notYouRoute } from './not-you-route.ts';
import type { Body } from './page-forms.ts';
import { passkeyPageRoutes } from './passkey-routes.ts';
import { resetRoutes } from './reset-routes.ts';
import { resumeRoute } from './resume-route.ts';
import { signupRoutes } from './signup-routes.ts';

/** The services these routes use. */
type Services = Pick<
  Container,
  | 'accounts'
  | 'authorization'
  | 'authorizationRequests'
  | 'clients'
  | 'clock'
  | 'codeSignIn'
  | 'config'
  | 'connectedApps'
  | 'networkVerification'
  | 'defence'
  | 'deletion'
  | 'deviceAuthorizations'
  | 'logos'
  | 'otp'
  | 'pageStateKeys'
  | 'passkeys'
  | 'passkeySignIn'
  | 'profiles'
  | 'random'
  | 'rateLimiter'
  | 'recoveryCodes'
  | 'recoverySignIn'
  | 'signIn'
  | 'sessions'
  | 'tokens'
>;

/** The authorization request's parameters (RFC 6749 §4.1.1, OIDC Core §3.1.2.1), as documented. */
const authorizationParams = described({
  response_type: 'code',
  client_id: 'the registered client',
  redirect_uri: "exactly one of the client's registered redirect URIs",
  scope:
    "space-separated: openid, profile, profile:write, phone, email, kyc, account:delete (within the client's scopes)",
  state: 'returned unchanged on the redirect',
  code_challenge: 'BASE64URL(SHA-256(code_verifier)), 43 characters',
  code_challenge_method: 'S256 (plain is refused)',
  nonce: 'optional, echoed into the ID token',
  prompt: 'optional (OIDC): none, login, consent, select_account, create',
  id_token_hint: 'optional (OIDC): an ID token this client was given; the user it expects',
  request:
    "a request object (RFC 9101): the parameters as a JWT signed with one of the client's keys; only those inside count",
  request_uri:
    'the request_uri POST /oauth/par answered (RFC 9126), with client_id; no other parameter counts',
  max_age: 'optional (OIDC): seconds since the last sign-in after which the user signs in again',
  login_hint: 'optional (OIDC): a phone number to put in the sign-in form',
  ui_locales: 'optional (OIDC): languages for the page, space-separated BCP 47 tags, most wanted first',
  acr_values:
    'optional (OIDC): space-separated levels, most wanted first; urn:callsign:acr:phr asks an account that has a passkey to sign in with it',
});

// D24 places an error in U+0000 like any other: the error page, or a redirect once the client is known.
const ownNulCheck = { ownNulCheck: true };
const authorizeAnswers = {
  200: htmlPage('the sign-in, sign-up or consent page'),
  302: redirect('back to the client’s redirect_uri with `code` (or `error`), `state` and `iss`'),
  303: redirect('a cross-site form post, sent on as a GET to /authorize'),
  '4xx': htmlPage('an error page: the client or its redirect_uri cannot be trusted with the error'),
};

/** The hosted authorization page on {auth_url}: GET /authorize and the forms it posts. */
export function authorizeRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const flow = pageFlow(c);
  const authorize = authorizationRequest(c, flow);
  app.get(
    '/authorize',
    {
      schema: {
        tags: ['OAuth'],
        summary: 'Authorization endpoint (hosted page)',
        querystring: authorizationParams,
        response: authorizeAnswers,
      },
      config: ownNulCheck,
    },
    (request, reply) => authorize(request, reply, request.query),
  );
  // OIDC Core §3.1.2.1: the same request, form-encoded. It only starts a sign-in, as GET does, so it needs no
  // CSRF token; the page's own forms, which act for the user, post to /authorize/* with theirs.
  app.post(
    '/authorize',
    {
      schema: {
        tags: ['OAuth'],
        summary: 'Authorization endpoint, the request as a form (same as GET)',
        consumes: ['application/x-www-form-urlencoded'],
        body: authorizationParams,
        response: authorizeAnswers,
      },
      config: ownNulCheck,
    },
    (request, reply) => {
      const params = request.body ?? {};
      // Another site's form: on as a GET, which brings the single sign-on cookie that the POST lacks.
      if (crossSiteFormPost(request)) return reply.redirect(`/authorize?${formAsQuery(params)}`, 303);
      return authorize(request, reply, params);
    },
  );

  signinRoutes(fastify, c, flow);
  signupRoutes(fastify, c, flow);
  codeRoutes(fastify, c, flow);
  networkCallbackRoutes(fastify, c, flow);
  consentRoutes(fastify, c, flow);
  resumeRoute(fastify, c, flow);
  passkeyPageRoutes(fastify, c, flow);
  resetRoutes(fastify, c, flow);
  notYouRoute(fastify, c, flow);
  deviceRoutes(fastify, c, flow);
  logoutRoutes(app, c, (request) => flow.page.limit(request));

  app.setErrorHandler(
    pageErrorHandler(flow.page.html, (request) => errorPagesIn(viewOf(request, c)), 'authorization page'),
  );
}

/** The sign-in form: phone and PIN, under the REST surface's limits and lock. */
function signinRoutes(fastify: FastifyInstance, c: Services, flow: PageFlow) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { limit, formState, retry, sealed } = flow.page;
  const { signedIn } = flow.steps;
  const signinForm = {
    schema: { hide: true, body: pageForm('phone', 'pin', 'country', 'platform_authenticator') },
  };
  app.post('/authorize/signin', signinForm, async (request, reply) => {
    const { st, ctx } = await formState(request, request.body);
    const { phone = '', pin } = request.body;
    try {
      // The REST surface's limits and lock apply here too.
      let e164: string | undefined;
      try {
        e164 = parsePhoneIn(phone, ctx.country).e164;
      } catch {}
      await limit(request, [
        ['signin_address', request.ip],
        ...(e164 ? [['signin_phone', e164] as [RateLimitName, string]] : []),
      ]);
      const { user, amr } = await c.signIn.onPage(c.accounts.pinProof(phone, pin, e164));
      const platformAuthenticator = request.body.platform_authenticator === '1';
      return await signedIn({ reply, ctx, st, user, amr, platformAuthenticator });
    } catch (err) {
      return retry(
        reply,
        err,
        (problem) => {
          // "Forgot PIN?" from the refusal keeps the number typed.
          const state = sealed({ ...st, typedPhone: phone.slice(0, 40) }, ctx.csrf);
          const shown = { ...ctx, state, problem: formProblem(ctx.view, problem, {}, c.clock.now()) };
          return signInPage(shown, phone);
        },
        st.req.redirectUri,
      );
    }
  });
}

/** The consent form: allow issues the code, deny answers access_denied. */
function consentRoutes(fastify: FastifyInstance, c: Services, flow: PageFlow) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { limit, formState } = flow.page;
  const consentForm = { schema: { hide: true, body: pageForm('decision') } };
  app.post('/authorize/consent', consentForm, async (request, reply) => {
    const { st, ctx } = await formState(request, request.body);
    // A state at a passkey step has its own forms; consent comes after it.
    const who = st.step ? undefined : await signedInStill(c, request, st);
    if (!who) throw new PageError(400, 'error.start_again');
    await limit(request);
    if (request.body.decision !== 'allow') return flow.steps.denied({ reply, ctx, st, who });
    await c.authorization.rememberConsent(who.userId, st.req.clientId, st.req.scope);
    return flow.steps.finish({ reply, ctx, st, who });
  });
}

/** An authorization request, from the query of a GET or the form of a POST (OIDC Core §3.1.2.1). */
function authorizationRequest(c: Services, flow: PageFlow) {
  const { html, redirectTo, limit } = flow.page;
  const start = authorizationStart(c, flow);
  return async (request: FastifyRequest, reply: FastifyReply, params: Body) => {
    await limit(request);
    const checked = await c.authorizationRequests.check(params);
    if (!checked.ok && 'page' in checked)
      return html(reply, 400, errorPage(viewOf(request, c), `error.${checked.page}`));
    if (!checked.ok) {
      const { redirectUri, error, description, state } = checked.redirect;
      return redirectTo(reply, redirectUri, { error, error_description: description, state });
    }
    return start(request, reply, checked.request, checked.client);
  };
}
