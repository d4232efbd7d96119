import type { FastifyRequest } from 'fastify';
import type { Container } from '../../composition/container.ts';
import type { SignedIn } from '../../domain/oauth/authorization.ts';
import type { AuthorizationRequest } from '../../domain/oauth/authorization-request.ts';
import { fallsShortOf } from '../../domain/oauth/requested-acr.ts';
import { pageCookieOf } from '../cookies/page-cookies.ts';

// The passkey steps between a sign-in on the hosted pages and consent.
// - Step-up: the client asked for a phishing-resistant sign-in (acr_values) and this one is not; an account with
//   a passkey is asked for it (or may go on without, and the tokens say so); one without goes straight on.
// - Offer: after a sign-up or a PIN's sign-in, in a browser whose page found a platform authenticator that
//   verifies its user, an account with no passkey is offered one. "Not now" is remembered in that browser for
//   30 days.

/** The cookie that remembers "Not now", and for how long. */
export const PASSKEY_LATER_COOKIE = 'callsign_passkey_later';
export const PASSKEY_LATER_SECONDS = 30 * 24 * 3600;

export type PasskeyStep = 'passkey_offer' | 'passkey_step_up';

/** The passkey step this sign-in goes through before consent, if one is due. */
export async function passkeyStepAfter(
  c: Pick<Container, 'config' | 'passkeys'>,
  request: FastifyRequest,
  req: AuthorizationRequest,
  who: SignedIn,
  platformAuthenticator: boolean,
): Promise<PasskeyStep | undefined> {
  if (!c.config.signInMethods.has('passkey')) return undefined;
  const stepUp = fallsShortOf(req.acr, who.amr);
  const offer = platformAuthenticator && !pageCookieOf(request, c.config.authUrl, PASSKEY_LATER_COOKIE);
  if (!stepUp && !offer) return undefined;
  const hasPasskey = (await c.passkeys.list(who.userId)).length > 0;
  if (stepUp && hasPasskey) return 'passkey_step_up';
  return offer && !hasPasskey ? 'passkey_offer' : undefined;
}
