// The cookies of the pages (the hosted sign-in and account pages, the console, the verification link): how
// they are named and scoped, so that no other site can set one of them.
//
// Rules it enforces:
// - Over https, a page's cookie is named with the `__Host-` prefix. Browsers keep such a cookie only when it
//   is Secure, has Path=/ and no Domain, so a sibling subdomain (or anyone who answers for the name over
//   plain http) can neither set nor shadow it: no planted CSRF value, single sign-on or console session
//   ("cookie tossing"). The price is Path=/: the cookie goes with every request to the service's own
//   origin, where only the page that set it reads it.
// - Over http (a development service on localhost), where browsers refuse the prefix, the cookie keeps its
//   plain name and the path of its pages.
// - Every one is HttpOnly: no script of a page reads it.
import { parse as parseCookies, serialize } from 'cookie';
import type { FastifyRequest } from 'fastify';

/** The prefix browsers hold to Secure, Path=/ and no Domain. */
const HOST_PREFIX = '__Host-';

export interface PageCookieOptions {
  /** the pages' path, used over http only */
  path: string;
  maxAge: number;
  sameSite: 'lax' | 'strict';
}

export interface HostCookies {
  /** The Set-Cookie value of the named cookie. */
  set(name: string, value: string, options: PageCookieOptions): string;
  /** The named cookie the request carries; never one of the same name without the prefix. */
  get(request: FastifyRequest, name: string): string | undefined;
}

/** The cookies of pages served at `pageUrl` (the service's AUTH_URL, its console's, its verification links'). */
export function hostCookies(pageUrl: string): HostCookies {
  const secure = pageUrl.startsWith('https:');
  const wireName = (name: string) => (secure ? `${HOST_PREFIX}${name}` : name);
  return {
    set: (name, value, { path, maxAge, sameSite }) =>
      serialize(wireName(name), value, {
        httpOnly: true,
        secure,
        sameSite,
        path: secure ? '/' : path,
        maxAge,
      }),
    get: (request, name) => parseCookies(request.headers.cookie ?? '')[wireName(name)],
  };
}
