import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../composition/container.ts';
import type { RateLimitName } from '../../config/rate-limits.ts';
import { DomainError } from '../../domain/errors.ts';
import { maskPhone } from '../../domain/phone.ts';
import type { UserRow } from '../../storage/repositories/users.ts';
import { CSRF_COOKIE, pageCookie, pageCookieOf } from '../cookies/page-cookies.ts';
import { REST_STATUS } from '../errors/rest-statuses.ts';
import { sendPage } from '../pages/page-reply.ts';
import { seal } from '../pages/page-state.ts';
import { browserTag } from './browser-binding.ts';
import { checkedForm, type FormFields, formTarget, type UnboundState } from './page-forms.ts';

/** The services these routes use. */
type Services = Pick<
  Container,
  'clients' | 'clock' | 'config' | 'logos' | 'pageStateKeys' | 'random' | 'rateLimiter'
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
 * What the hosted authorization page's routes share: its cookies, answers (pages and redirects), limits and the
 * checked state of its forms. The steps after a sign-in are authorization-steps.ts.
 */
export function pageAnswers(c: Services) {
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

export type PageAnswers = ReturnType<typeof pageAnswers>;
