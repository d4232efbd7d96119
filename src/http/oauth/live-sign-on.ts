// Who a form of a step after the sign-in acts for.
//
// Rules it enforces:
// - A form of a step after the sign-in (consent, the passkey offer and its "not now", the step-up and its
//   "continue without") acts only for the person whose single sign-on still lives in this browser: the same
//   account, at the same PIN. The sealed state alone names them for 30 minutes, but once they signed out (or
//   someone signed in here as another account, or the PIN was reset) a form already on the screen gives no
//   code, however often it is posted.
import type { FastifyRequest } from 'fastify';
import type { Container } from '../../composition/container.ts';
import type { SignedIn } from '../../domain/oauth/authorization.ts';
import { pageCookieOf, SSO_COOKIE } from '../cookies/page-cookies.ts';
import { type PageState, signedInOf } from './page-forms.ts';

/** The person a state at a later step names, while their single sign-on lives in this browser. */
export async function signedInStill(
  c: Pick<Container, 'authorization' | 'config'>,
  request: FastifyRequest,
  st: PageState,
): Promise<SignedIn | undefined> {
  const named = signedInOf(st);
  if (!named) return undefined;
  const live = await c.authorization.ssoUser(pageCookieOf(request, c.config.authUrl, SSO_COOKIE));
  const same = live !== undefined && live.userId === named.userId && live.pinVersion === named.pinVersion;
  return same ? named : undefined;
}
