import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimitName } from '../../config/rate-limits.ts';
import type { Container } from '../../container.ts';
import { safeEqual } from '../../domain/crypto.ts';
import { DomainError } from '../../domain/errors.ts';
import type { SignedIn } from '../../domain/oauth/authorization.ts';
import {
  type AuthorizationRequest,
  checkAuthorizationRequest,
  mustSignIn,
} from '../../domain/oauth/authorization-request.ts';
import { maskPhone, parsePhone } from '../../domain/phone.ts';
import type { ClientRow } from '../../storage/repositories/clients.ts';
import type { UserRow } from '../../storage/repositories/users.ts';
import { described } from '../described.ts';
import {
  consentPage,
  errorPage,
  type FormContext,
  signInPage,
  signUpAccountPage,
  signUpCodePage,
  signUpPhonePage,
} from '../pages/authorize-pages.ts';
import { sendPage } from '../pages/page-reply.ts';
import { seal, unseal } from '../pages/page-state.ts';
import { REST_STATUS } from '../plugins/error-statuses.ts';
import { logoutRoutes } from './logout-routes.ts';
import {
  CSRF_COOKIE,
  cookieOf,
  crossSiteFormPost,
  formAsQuery,
  pageCookie,
  SSO_COOKIE,
} from './page-cookies.ts';

/** What the page's forms carry, sealed (page-state.ts). */
interface PageState {
  req: AuthorizationRequest;
  phone?: string;
  tempToken?: string;
  /** signed in, awaiting consent: who, when (ms), and the version of the PIN they proved (P88) */
  userId?: string;
  authTime?: number;
  pinVersion?: number;
}

type Body = Record<string, unknown>;

/** The hosted authorization page on {auth_url}: GET /authorize and the forms it posts (D24, D25, D38). */
export function authorizeRoutes(app: FastifyInstance, c: Container) {
  const cookie = (name: string, value: string, maxAge: number) =>
    pageCookie(c.config.authUrl, name, value, maxAge);

  /** D38: forms only to us and to the client being returned to. */
  const html = (reply: FastifyReply, status: number, body: string, redirectUri?: string) =>
    sendPage(reply, status, body, { formTarget: redirectUri ? formTarget(redirectUri) : undefined });

  /** RFC 6749 §4.1.2 with RFC 9207's iss on every answer, success or error. */
  const redirectTo = (
    reply: FastifyReply,
    redirectUri: string,
    params: Record<string, string | undefined>,
  ) => {
    const url = new URL(redirectUri);
    for (const [k, v] of Object.entries({ ...params, iss: c.config.baseUrl }))
      if (v !== undefined) url.searchParams.set(k, v);
    return reply
      .header('Cache-Control', 'no-store')
      .header('Referrer-Policy', 'no-referrer')
      .redirect(url.toString(), 302);
  };

  const limit = async (request: FastifyRequest, extra: Array<[RateLimitName, string]> = []) => {
    const { exceeded } = await c.rateLimiter.hit([['oauth_authorize_address', request.ip], ...extra]);
    if (exceeded) throw exceeded;
  };

  const csrfOf = (request: FastifyRequest) => cookieOf(request, CSRF_COOKIE);

  /** Every form post: the CSRF double-submit matches and the sealed state is intact, fresh and its client live. */
  const formState = async (
    request: FastifyRequest,
  ): Promise<{ st: PageState; client: ClientRow; ctx: FormContext }> => {
    const body = (request.body ?? {}) as Body;
    const csrf = csrfOf(request);
    if (!csrf || typeof body.csrf !== 'string' || !safeEqual(csrf, body.csrf)) {
      throw new PageError(400, 'This form has expired or did not come from this page.');
    }
    const st = unseal<PageState>(c.pageStateKeys, body.state, c.clock.now());
    const client = st && (await c.clients.findClient(st.req.clientId));
    if (!st || !client)
      throw new PageError(400, 'This sign-in has expired. Start again from the application.');
    return { st, client, ctx: { client, csrf, state: body.state as string } };
  };

  const sealed = (st: PageState) => seal(c.pageStateKeys, st, c.clock.now());

  /** Signed in: consent if this client needs it, else the code goes back to the client. */
  const proceed = async (reply: FastifyReply, ctx: FormContext, st: PageState, who: SignedIn) => {
    // P70: prompt=consent asks again; prompt=none shows no page at all.
    const asked = st.req.prompt?.includes('consent');
    if (asked || (await c.authorization.needsConsent(who.userId, ctx.client, st.req.scope))) {
      if (st.req.prompt?.includes('none'))
        return redirectTo(reply, st.req.redirectUri, {
          error: 'consent_required',
          error_description: 'the user has not allowed this application these scopes',
          state: st.req.state,
        });
      const state = sealed({
        req: st.req,
        userId: who.userId,
        authTime: who.authTime.getTime(),
        pinVersion: who.pinVersion,
      });
      return html(reply, 200, consentPage({ ...ctx, state }, st.req.scope), st.req.redirectUri);
    }
    const code = await c.authorization.issueCode(who, st.req);
    return redirectTo(reply, st.req.redirectUri, { code, state: st.req.state });
  };

  /** A PIN just proved (sign-in or sign-up): the single sign-on cookie (D25), then on to the client. */
  const signedIn = async (reply: FastifyReply, ctx: FormContext, st: PageState, user: UserRow) => {
    const who = { userId: user.id, authTime: c.clock.now(), pinVersion: user.pin_version };
    const sso = await c.authorization.startSso(who);
    reply.header('Set-Cookie', cookie(SSO_COOKIE, sso.token, sso.maxAgeSeconds));
    return proceed(reply, ctx, st, who);
  };

  /** A refused form answer is shown on the same page, with the status its error code carries. */
  const retry = (
    reply: FastifyReply,
    err: unknown,
    render: (message: string) => string,
    redirectUri: string,
  ) => {
    if (!(err instanceof DomainError) || err.code === 'INTERNAL_ERROR') throw err;
    return html(reply, REST_STATUS[err.code], render(err.message), redirectUri);
  };

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
    request: 'not supported: answered request_not_supported',
    request_uri: 'not supported: answered request_uri_not_supported',
    max_age: 'optional (OIDC): seconds since the last sign-in after which the user signs in again',
    login_hint: 'optional (OIDC): a phone number to put in the sign-in form',
  });

  /** An authorization request, from the query of a GET or the form of a POST (OIDC Core §3.1.2.1). */
  const authorize = async (request: FastifyRequest, reply: FastifyReply, params: Body) => {
    await limit(request);
    const checked = await checkAuthorizationRequest(params, {
      findClient: (id) => c.clients.findClient(id),
      idTokenHint: (token) => c.tokens.idTokenHint(token),
    });
    if (!checked.ok && 'page' in checked) return html(reply, 400, errorPage(checked.page));
    if (!checked.ok) {
      const { redirectUri, error, description, state } = checked.redirect;
      return redirectTo(reply, redirectUri, { error, error_description: description, state });
    }
    let csrf = csrfOf(request);
    if (!csrf) {
      csrf = c.random.token(32);
      reply.header('Set-Cookie', cookie(CSRF_COOKIE, csrf, 3600));
    }
    const st: PageState = { req: checked.request };
    const ctx: FormContext = { client: checked.client, csrf, state: sealed(st) };
    // P110: the client asks for a new account, so a single sign-on does not answer for the user.
    if (st.req.prompt?.includes('create'))
      return html(reply, 200, signUpPhonePage(ctx, st.req.loginHint), st.req.redirectUri);
    const sso = await c.authorization.ssoUser(cookieOf(request, SSO_COOKIE));
    if (sso && !mustSignIn(st.req, sso, c.clock.now())) return proceed(reply, ctx, st, sso);
    // P70: prompt=none never shows the page; the client learns the user must sign in.
    if (st.req.prompt?.includes('none'))
      return redirectTo(reply, st.req.redirectUri, {
        error: 'login_required',
        error_description: 'the user must sign in',
        state: st.req.state,
      });
    return html(reply, 200, signInPage(ctx, st.req.loginHint), st.req.redirectUri);
  };
  // D24 places an error in U+0000 like any other (P63): the error page, or a redirect once the client is known.
  const ownNulCheck = { ownNulCheck: true };
  app.get(
    '/authorize',
    {
      schema: {
        tags: ['OAuth'],
        summary: 'Authorization endpoint (hosted page)',
        querystring: authorizationParams,
      },
      config: ownNulCheck,
    },
    (request, reply) => authorize(request, reply, request.query as Body),
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
      },
      config: ownNulCheck,
    },
    (request, reply) => {
      const params = (request.body ?? {}) as Body;
      // Another site's form: on as a GET, which brings the single sign-on cookie that the POST lacks.
      if (crossSiteFormPost(request)) return reply.redirect(`/authorize?${formAsQuery(params)}`, 303);
      return authorize(request, reply, params);
    },
  );

  app.post('/authorize/signin', { schema: { hide: true } }, async (request, reply) => {
    const { st, ctx } = await formState(request);
    const body = request.body as Body;
    const phone = typeof body.phone === 'string' ? body.phone : '';
    try {
      // The REST surface's limits and lock apply here too (D28, D9).
      let e164: string | undefined;
      try {
        e164 = parsePhone(phone).e164;
      } catch {}
      await limit(request, [
        ['signin_address', request.ip],
        ...(e164 ? [['signin_phone', e164] as [RateLimitName, string]] : []),
      ]);
      return await signedIn(reply, ctx, st, await c.accounts.checkPin(phone, body.pin));
    } catch (err) {
      return retry(reply, err, (error) => signInPage({ ...ctx, error }, phone), st.req.redirectUri);
    }
  });

  /** The page's links between sign-in and sign-up: the same request, its state carried in the query. */
  const linkedPage = (path: string, show: (ctx: FormContext, hint?: string) => string) =>
    app.get(path, { schema: { hide: true } }, async (request, reply) => {
      const query = request.query as Body;
      const csrf = csrfOf(request);
      const st = unseal<PageState>(c.pageStateKeys, query.state, c.clock.now());
      const client = st && (await c.clients.findClient(st.req.clientId));
      if (!st || !client || !csrf)
        return html(reply, 400, errorPage('This sign-in has expired. Start again from the application.'));
      const ctx = { client, csrf, state: query.state as string };
      return html(reply, 200, show(ctx, st.req.loginHint), st.req.redirectUri);
    });
  linkedPage('/authorize/signup', signUpPhonePage);
  linkedPage('/authorize/signin', signInPage); // P110: back from the sign-up page

  app.post('/authorize/signup/send', { schema: { hide: true } }, async (request, reply) => {
    const { st, ctx } = await formState(request);
    const phone = (request.body as Body).phone;
    try {
      const e164 = parsePhone(phone).e164;
      await limit(request, [
        ['otp_send_address', request.ip],
        ['otp_send_phone', e164],
      ]);
      await c.otp.send(e164, 'signup');
      return html(
        reply,
        200,
        signUpCodePage({ ...ctx, state: sealed({ ...st, phone: e164 }) }, maskPhone(e164)),
        st.req.redirectUri,
      );
    } catch (err) {
      return retry(
        reply,
        err,
        (error) => signUpPhonePage({ ...ctx, error }, String(phone ?? '')),
        st.req.redirectUri,
      );
    }
  });

  app.post('/authorize/signup/verify', { schema: { hide: true } }, async (request, reply) => {
    const { st, ctx } = await formState(request);
    if (!st.phone) throw new PageError(400, 'Start the sign-up again.');
    try {
      await limit(request);
      const { temp_token } = await c.otp.verify(st.phone, (request.body as Body).code, 'signup');
      return html(
        reply,
        200,
        signUpAccountPage({ ...ctx, state: sealed({ req: st.req, tempToken: temp_token }) }),
        st.req.redirectUri,
      );
    } catch (err) {
      return retry(
        reply,
        err,
        (error) => signUpCodePage({ ...ctx, error }, maskPhone(st.phone as string)),
        st.req.redirectUri,
      );
    }
  });

  app.post('/authorize/signup/create', { schema: { hide: true } }, async (request, reply) => {
    const { st, ctx } = await formState(request);
    if (!st.tempToken) throw new PageError(400, 'Start the sign-up again.');
    const body = request.body as Body;
    try {
      await limit(request);
      const name = typeof body.name === 'string' && body.name.trim() ? body.name : undefined;
      const { user } = await c.accounts.createAccount(
        { temp_token: st.tempToken, pin: body.pin, handle: body.handle, name },
        async () => {},
      );
      return await signedIn(reply, ctx, st, user);
    } catch (err) {
      return retry(reply, err, (error) => signUpAccountPage({ ...ctx, error }), st.req.redirectUri);
    }
  });

  logoutRoutes(app, c, (request) => limit(request));

  app.post('/authorize/consent', { schema: { hide: true } }, async (request, reply) => {
    const { st } = await formState(request);
    if (!st.userId || st.authTime === undefined || st.pinVersion === undefined)
      throw new PageError(400, 'Start again from the application.');
    await limit(request);
    if ((request.body as Body).decision !== 'allow') {
      return redirectTo(reply, st.req.redirectUri, {
        error: 'access_denied',
        error_description: 'the user denied the request',
        state: st.req.state,
      });
    }
    await c.authorization.rememberConsent(st.userId, st.req.clientId, st.req.scope);
    const code = await c.authorization.issueCode(
      { userId: st.userId, authTime: new Date(st.authTime), pinVersion: st.pinVersion },
      st.req,
    );
    return redirectTo(reply, st.req.redirectUri, { code, state: st.req.state });
  });

  // Anything else that goes wrong shows the error page: the user is never handed a JSON body or a stack.
  app.setErrorHandler((err, request, reply) => {
    if (err instanceof PageError) return html(reply, err.status, errorPage(err.message));
    if (err instanceof DomainError && err.code === 'RATE_LIMITED')
      return html(reply, 429, errorPage('Too many attempts. Wait a while and try again.'));
    // A malformed form (schema, P63), and, P105, Fastify's refusals of a body (a content type other than a
    // form's, 415; too large, 413): the client's error, not ours.
    const status = (err as { statusCode?: number }).statusCode ?? 500;
    if (status >= 400 && status < 500) return html(reply, status, errorPage('The request was malformed.'));
    request.log.error({ err }, 'authorization page failed');
    return html(reply, 500, errorPage('Something went wrong on our side. Try again later.'));
  });
}

/** CSP form-action source for the client's redirect URI: its origin, or its private-use scheme (RFC 8252). */
function formTarget(uri: string): string {
  const u = new URL(uri);
  return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : u.protocol;
}

class PageError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
