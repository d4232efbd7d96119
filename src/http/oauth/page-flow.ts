import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../composition/container.ts';
import type { RateLimitName } from '../../config/rate-limits.ts';
import type { RemovedByReset } from '../../domain/accounts/pin-reset-sessions.ts';
import { accountPageLocation, isAccountPage } from '../../domain/clients/account-page-client.ts';
import { DomainError } from '../../domain/errors.ts';
import type { SignedIn } from '../../domain/oauth/authorization.ts';
import { maskPhone } from '../../domain/phone.ts';
import type { UserRow } from '../../storage/repositories/users.ts';
import { CSRF_COOKIE, pageCookie, pageCookieOf, SSO_COOKIE } from '../cookies/page-cookies.ts';
import { REST_STATUS } from '../errors/rest-statuses.ts';
import type { FormContext } from '../pages/authorize-pages.ts';
import { consentPage } from '../pages/consent-pages.ts';
import { sendPage } from '../pages/page-reply.ts';
import { seal } from '../pages/page-state.ts';
import { passkeyOfferPage, passkeyStepUpPage } from '../pages/passkey-pages.ts';
import { resetRemovedPage } from '../pages/reset-pages.ts';
import { browserTag } from './browser-binding.ts';
import {
  checkedForm,
  type FormFields,
  formTarget,
  type PageState,
  pageView,
  signedInState,
  type UnboundState,
} from './page-forms.ts';
import { passkeyStepAfter } from './passkey-steps.ts';

/** The services these routes use. */
type Services = Pick<
  Container,
  | 'authorization'
  | 'clients'
  | 'clock'
  | 'config'
  | 'logos'
  | 'pageStateKeys'
  | 'passkeys'
  | 'profiles'
  | 'random'
  | 'rateLimiter'
>;

/** RFC 6749 §4.1.2 with RFC 9207's iss on every answer, success or error. */
function redirectWithIss(
  reply: FastifyReply,
  redirectUri: string,
  params: Record<string, string | undefined>,
) {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return reply
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .redirect(url.toString(), 302);
}

/**
 * What the hosted authorization page's routes share: its cookies, answers (pages and redirects), limits, the
 * checked state of its forms, and the steps after a PIN was proved.
 */
export function pageFlow(c: Services) {
  const answers = pageAnswers(c);
  return { ...answers, ...signedInSteps(c, answers) };
}

/** The page's cookies, answers, limits and checked forms. */
function pageAnswers(c: Services) {
  const cookie = (name: string, value: string, maxAge: number) =>
    pageCookie(c.config.authUrl, name, value, maxAge);

  /** Forms only to us and to the client being returned to. */
  const html = (reply: FastifyReply, status: number, body: string, redirectUri?: string) =>
    sendPage(reply, status, body, { formTarget: redirectUri ? formTarget(redirectUri) : undefined });

  const redirectTo = (reply: FastifyReply, redirectUri: string, params: Record<string, string | undefined>) =>
    redirectWithIss(reply, redirectUri, { ...params, iss: c.config.baseUrl });

  const limit = async (request: FastifyRequest, extra: Array<[RateLimitName, string]> = []) => {
    const { exceeded } = await c.rateLimiter.hit([['oauth_authorize_address', request.ip], ...extra]);
    if (exceeded) throw exceeded;
  };

  const csrfOf = (request: FastifyRequest) => pageCookieOf(request, c.config.authUrl, CSRF_COOKIE);

  /** This browser's CSRF token; one is made and set as its cookie when it has none. */
  const csrfFor = (request: FastifyRequest, reply: FastifyReply) => {
    const existing = csrfOf(request);
    if (existing) return existing;
    const csrf = c.random.token(32);
    reply.header('Set-Cookie', cookie(CSRF_COOKIE, csrf, 3600));
    return csrf;
  };

  /** Every form post: the CSRF double-submit matches and the sealed state is intact, fresh and its client live. */
  const formState = (request: FastifyRequest, form: FormFields | undefined) => checkedForm(c, request, form);

  /** The state sealed for the browser whose CSRF token this is. */
  const sealed = (st: UnboundState, csrf: string) =>
    seal(c.pageStateKeys, { ...st, browser: browserTag(csrf) }, c.clock.now());

  /** A refused form answer is shown on the same page, with the status its error code carries. */
  const retry = (
    reply: FastifyReply,
    err: unknown,
    render: (problem: DomainError) => string,
    redirectUri: string,
  ) => {
    if (!(err instanceof DomainError) || err.code === 'INTERNAL_ERROR') throw err;
    return html(reply, REST_STATUS[err.code], render(err), redirectUri);
  };

  return { cookie, html, redirectTo, limit, csrfOf, csrfFor, formState, sealed, retry };
}

/** Whose single sign-on a page is shown under: the account's name (or handle) and its masked phone. */
export const signedInAs = (account: UserRow) => ({
  name: account.name ?? account.handle,
  phone: maskPhone(account.phone),
});

/** The steps after a sign-in was proved: a passkey step when due, consent when needed, the code. */
function signedInSteps(c: Services, { cookie, html, redirectTo, sealed }: ReturnType<typeof pageAnswers>) {
  /** Signed in: consent if this client needs it, else the code goes back to the client. */
  const proceed = async (reply: FastifyReply, ctx: FormContext, st: PageState, who: SignedIn) => {
    // The account page's own sign-in ends back on it, with no consent and no code.
    if (isAccountPage(st.req.clientId)) return reply.redirect(accountPageLocation(st.req.state), 303);
    // Prompt=consent asks again; prompt=none shows no page at all.
    const asked = st.req.prompt?.includes('consent');
    if (asked || (await c.authorization.needsConsent(who.userId, ctx.client, st.req.scope))) {
      if (st.req.prompt?.includes('none'))
        return redirectTo(reply, st.req.redirectUri, {
          error: 'consent_required',
          error_description: 'the user has not allowed this application these scopes',
          state: st.req.state,
        });
      const state = sealed(signedInState(st.req, who), ctx.csrf);
      // Signed in, the page can speak the account's own language, and says whose it is.
      const account = await c.profiles.get(who.userId);
      const view = pageView(c, reply.request, st, account.language);
      const shown = { ...ctx, view, state, signedInAs: signedInAs(account) };
      return html(reply, 200, consentPage(shown, st.req.scope), st.req.redirectUri);
    }
    const code = await c.authorization.issueCode(who, st.req);
    return redirectTo(reply, st.req.redirectUri, { code, state: st.req.state });
  };

  /** Signed in: a passkey step when one is due (passkey-steps.ts), else on to consent or the client. */
  const onward = async (
    reply: FastifyReply,
    ctx: FormContext,
    st: PageState,
    who: SignedIn,
    platformAuthenticator = false,
  ) => {
    const step = await passkeyStepAfter(c, reply.request, st.req, who, platformAuthenticator);
    if (!step) return proceed(reply, ctx, st, who);
    // Prompt=none shows no page: the offer is left for another time; a step-up the client asked for needs the
    // person, so the client hears so rather than a code at a level it did not ask for.
    if (st.req.prompt?.includes('none')) {
      if (step === 'passkey_offer') return proceed(reply, ctx, st, who);
      return redirectTo(reply, st.req.redirectUri, {
        error: 'interaction_required',
        error_description: 'the requested authentication level needs the user to confirm with a passkey',
        state: st.req.state,
      });
    }
    const state = sealed({ ...signedInState(st.req, who), step }, ctx.csrf);
    const stepPage = step === 'passkey_offer' ? passkeyOfferPage : passkeyStepUpPage;
    const shown = { ...ctx, state, signedInAs: signedInAs(await c.profiles.get(who.userId)) };
    return html(reply, 200, stepPage(shown), st.req.redirectUri);
  };

  /**
   * A sign-in just proved (`amr` says how): the single sign-on cookie, then on. `platformAuthenticator` is the
   * form's word that this browser can make a passkey. After a PIN reset that removed passkeys or recovery
   * codes, the page says so first.
   */
  const signedIn = async (
    reply: FastifyReply,
    ctx: FormContext,
    st: PageState,
    user: UserRow,
    amr: string[],
    platformAuthenticator = false,
    removed?: RemovedByReset,
  ) => {
    const who = { userId: user.id, authTime: c.clock.now(), pinVersion: user.pin_version, amr };
    const sso = await c.authorization.startSso(who);
    reply.header('Set-Cookie', cookie(SSO_COOKIE, sso.token, sso.maxAgeSeconds));
    if (!removed || (removed.passkeys === 0 && !removed.recovery_codes))
      return onward(reply, ctx, st, who, platformAuthenticator);
    const state = sealed({ ...signedInState(st.req, who), step: 'reset_removed', removed }, ctx.csrf);
    return html(reply, 200, resetRemovedPage({ ...ctx, state }, removed), st.req.redirectUri);
  };

  return { proceed, onward, signedIn };
}

export type PageFlow = ReturnType<typeof pageFlow>;
