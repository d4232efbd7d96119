import type { FastifyReply, FastifyRequest } from 'fastify';
import { isPhoneCountry } from '../../config/look-settings.ts';
import type { RateLimitName } from '../../config/rate-limits.ts';
import type { Container } from '../../container.ts';
import { safeEqual } from '../../domain/crypto.ts';
import { DomainError } from '../../domain/errors.ts';
import type { SignedIn } from '../../domain/oauth/authorization.ts';
import type { AuthorizationRequest } from '../../domain/oauth/authorization-request.ts';
import { acceptedLanguages } from '../../i18n/languages.ts';
import type { ClientRow } from '../../storage/repositories/clients.ts';
import type { UserRow } from '../../storage/repositories/users.ts';
import { PageError } from '../errors/pages.ts';
import { REST_STATUS } from '../errors/rest-statuses.ts';
import type { FormContext } from '../pages/authorize-pages.ts';
import { consentPage } from '../pages/consent-pages.ts';
import { viewOf } from '../pages/page-language.ts';
import { sendPage } from '../pages/page-reply.ts';
import { seal, unseal } from '../pages/page-state.ts';
import { suggestedCountry } from '../pages/phone-field.ts';
import { browserTag, sealedForBrowser } from './browser-binding.ts';
import { CSRF_COOKIE, cookieOf, pageCookie, SSO_COOKIE } from './page-cookies.ts';

/** The services these routes use. */
type Services = Pick<
  Container,
  | 'authorization'
  | 'clients'
  | 'clock'
  | 'config'
  | 'logos'
  | 'pageStateKeys'
  | 'profiles'
  | 'random'
  | 'rateLimiter'
>;

/** What the page's forms carry, sealed (page-state.ts). */
export interface PageState {
  req: AuthorizationRequest;
  phone?: string;
  tempToken?: string;
  /** signed in, awaiting consent: who, when (ms), and the version of the PIN they proved */
  userId?: string;
  authTime?: number;
  pinVersion?: number;
  /** how they proved who they are (RFC 8176 methods) */
  amr?: string[];
  /** the browser it was sealed for: a digest of its CSRF cookie, set by `sealed` (browser-binding.ts) */
  browser?: string;
}

/** A state as a route makes it, before it is bound to its browser. */
export type UnboundState = Omit<PageState, 'browser'>;

export type Body = Record<string, unknown>;

/** CSP form-action source for the client's redirect URI: its origin, or its private-use scheme (RFC 8252). */
export function formTarget(uri: string): string {
  const u = new URL(uri);
  return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : u.protocol;
}

/** What every form of the page sends beside its own fields. */
type FormFields = { csrf?: string; state?: string; country?: string };

async function checkedForm(
  c: Services,
  request: FastifyRequest,
  form: FormFields | undefined,
): Promise<{ st: PageState; client: ClientRow; ctx: FormContext }> {
  const csrf = cookieOf(request, CSRF_COOKIE);
  if (!csrf || form?.csrf === undefined || !safeEqual(csrf, form.csrf)) {
    throw new PageError(400, 'error.form_expired');
  }
  const st =
    form.state === undefined ? undefined : unseal<PageState>(c.pageStateKeys, form.state, c.clock.now());
  const client = st && (await c.clients.findClient(st.req.clientId));
  if (!st || !client || form.state === undefined || !sealedForBrowser(st, csrf))
    throw new PageError(400, 'error.signin_expired');
  const view = pageView(c, request, st);
  return {
    st,
    client,
    ctx: { client, csrf, state: form.state, view, country: pageCountry(c, request, form.country) },
  };
}

/** A page of the flow in the person's language: their pick, the client's ui_locales, the account's, the browser's. */
export const pageView = (
  c: Pick<Services, 'config' | 'logos'>,
  request: FastifyRequest,
  st: PageState,
  account?: string | null,
) => viewOf(request, c, { uiLocales: st.req.uiLocales, account }, undefined);

/** The phone field's country: the one the form last sent, else the browser's region, else DEFAULT_COUNTRY. */
export const pageCountry = (c: Pick<Services, 'config'>, request: FastifyRequest, sent?: string) =>
  isPhoneCountry(sent)
    ? sent
    : suggestedCountry(acceptedLanguages(request.headers['accept-language']), c.config.look.defaultCountry);

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

  const csrfOf = (request: FastifyRequest) => cookieOf(request, CSRF_COOKIE);

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

  /** Signed in: consent if this client needs it, else the code goes back to the client. */
  const proceed = async (reply: FastifyReply, ctx: FormContext, st: PageState, who: SignedIn) => {
    // Prompt=consent asks again; prompt=none shows no page at all.
    const asked = st.req.prompt?.includes('consent');
    if (asked || (await c.authorization.needsConsent(who.userId, ctx.client, st.req.scope))) {
      if (st.req.prompt?.includes('none'))
        return redirectTo(reply, st.req.redirectUri, {
          error: 'consent_required',
          error_description: 'the user has not allowed this application these scopes',
          state: st.req.state,
        });
      const { userId, pinVersion, amr } = who;
      const state = sealed(
        { req: st.req, userId, authTime: who.authTime.getTime(), pinVersion, amr },
        ctx.csrf,
      );
      // Signed in, the page can speak the account's own language.
      const view = pageView(c, reply.request, st, (await c.profiles.get(who.userId)).language);
      return html(reply, 200, consentPage({ ...ctx, view, state }, st.req.scope), st.req.redirectUri);
    }
    const code = await c.authorization.issueCode(who, st.req);
    return redirectTo(reply, st.req.redirectUri, { code, state: st.req.state });
  };

  /** A sign-in just proved (`amr` says how): the single sign-on cookie, then on to the client. */
  const signedIn = async (
    reply: FastifyReply,
    ctx: FormContext,
    st: PageState,
    user: UserRow,
    amr: string[],
  ) => {
    const who = { userId: user.id, authTime: c.clock.now(), pinVersion: user.pin_version, amr };
    const sso = await c.authorization.startSso(who);
    reply.header('Set-Cookie', cookie(SSO_COOKIE, sso.token, sso.maxAgeSeconds));
    return proceed(reply, ctx, st, who);
  };

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

  return { cookie, html, redirectTo, limit, csrfOf, csrfFor, formState, sealed, proceed, signedIn, retry };
}

export type PageFlow = ReturnType<typeof pageFlow>;

/**
 * The sealed state of a link between the page's forms (sign-in and sign-up, the language menu's way back),
 * with its live client, as this browser may use it: a state sealed for another browser is only its
 * authorization request, sealed anew for this one, so the link shows the request's start.
 */
export async function linkedState(
  c: Pick<Services, 'clients' | 'clock' | 'pageStateKeys'>,
  flow: Pick<PageFlow, 'sealed'>,
  sealedState: unknown,
  csrf: string,
) {
  const st = unseal<PageState>(c.pageStateKeys, sealedState, c.clock.now());
  const client = st && (await c.clients.findClient(st.req.clientId));
  if (!st || !client || typeof sealedState !== 'string') return undefined;
  if (sealedForBrowser(st, csrf)) return { st, client, state: sealedState };
  return { st: { req: st.req }, client, state: flow.sealed({ req: st.req }, csrf) };
}
