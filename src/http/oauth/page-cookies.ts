import { parse as parseCookies, serialize } from 'cookie';
import type { FastifyRequest } from 'fastify';

/** The hosted page's single sign-on and CSRF double-submit cookies, both under Path=/authorize. */
export const SSO_COOKIE = 'callsign_sso';
export const CSRF_COOKIE = 'callsign_csrf';

/** A Set-Cookie value: HttpOnly, SameSite=Lax, Secure when the page is served over https. */
export const pageCookie = (authUrl: string, name: string, value: string, maxAge: number) =>
  serialize(name, value, {
    httpOnly: true,
    secure: authUrl.startsWith('https:'),
    sameSite: 'lax',
    path: '/authorize',
    maxAge,
  });

export const cookieOf = (request: FastifyRequest, name: string): string | undefined =>
  parseCookies(request.headers.cookie ?? '')[name];

/**
 * A browser's form post from another site's page. SameSite=Lax keeps the page's cookies off such a post,
 * so the endpoints that take one (the authorization request, the logout request) send the browser on to
 * the same request as a GET, which a top-level navigation makes with the cookies.
 */
export const crossSiteFormPost = (request: FastifyRequest) =>
  request.method === 'POST' && request.headers['sec-fetch-site'] === 'cross-site';

/** A parsed form as a query string, a field sent twice kept twice (so the GET refuses it as it would). */
export function formAsQuery(form: Record<string, unknown>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(form))
    for (const one of Array.isArray(value) ? value : [value])
      if (typeof one === 'string') query.append(name, one);
  return query.toString();
}
