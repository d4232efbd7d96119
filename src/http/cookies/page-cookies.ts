import { parse as parseCookies } from 'cookie';
import type { FastifyRequest } from 'fastify';
import { hostCookies } from './host-cookies.ts';

/**
 * The hosted pages' single sign-on and CSRF double-submit cookies: `__Host-` over https, else under
 * Path=/authorize (host-cookies.ts).
 */
export const SSO_COOKIE = 'callsign_sso';
export const CSRF_COOKIE = 'callsign_csrf';

/** A Set-Cookie value of the hosted pages: HttpOnly, SameSite=Lax, `__Host-` and Secure over https. */
export const pageCookie = (authUrl: string, name: string, value: string, maxAge: number) =>
  hostCookies(authUrl).set(name, value, { path: '/authorize', maxAge, sameSite: 'lax' });

/** The hosted pages' named cookie the request carries. */
export const pageCookieOf = (request: FastifyRequest, authUrl: string, name: string): string | undefined =>
  hostCookies(authUrl).get(request, name);

/** A cookie of no security weight (the page's language), by its plain name. */
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
