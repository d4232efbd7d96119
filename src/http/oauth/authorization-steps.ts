// The hosted authorization flow, step by step, in the order a browser meets them:
// 1. Start (authorization-start.ts): the request checked; the sign-up or sign-in page, or a live single
//    sign-on that answers for the person (on to step 5).
// 2. Sign-in: a PIN, a passkey or a recovery code, each on its form's route, proved by the one sign-in.
// 3. Code and new PIN: a code to the phone (code-routes.ts) signs in, signs up or resets the PIN
//    (reset-routes.ts, signup-routes.ts).
// 4. `signedIn`: whatever proved it, the single sign-on cookie; after a reset that removed ways in, the page
//    that says so first.
// 5. `passkeyStep`: the passkey offer or step-up, when one is due (below; their forms: passkey-routes.ts).
// 6. `consentStep`: consent, when the client needs it (its form: the consent route of authorize.ts).
// 7. `finish`: the authorization code back to the client, or back to the account page; a device's request
//    allowed for its next poll (device-routes.ts starts those). `denied`: consent refused.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../composition/container.ts';
import type { RemovedByReset } from '../../domain/accounts/pin-reset-sessions.ts';
import { accountPageLocation, isAccountPage } from '../../domain/clients/account-page-client.ts';
import type { SignedIn } from '../../domain/oauth/authorization.ts';
import type { AuthorizationRequest } from '../../domain/oauth/authorization-request.ts';
import { fallsShortOf } from '../../domain/oauth/requested-acr.ts';
import type { UserRow } from '../../storage/repositories/users.ts';
import { pageCookieOf, SSO_COOKIE } from '../cookies/page-cookies.ts';
import { PageError } from '../errors/pages.ts';
import { clientBrand, type FormContext } from '../pages/authorize-pages.ts';
import { consentPage } from '../pages/consent-pages.ts';
import { deviceAllowedPage, deviceDeniedPage } from '../pages/device-pages.ts';
import { passkeyOfferPage, passkeyStepUpPage } from '../pages/passkey-pages.ts';
import { resetRemovedPage } from '../pages/reset-pages.ts';
import { type PageAnswers, pageAnswers, signedInAs } from './page-answers.ts';
import { type PageState, type PasskeyStep, pageView, signedInState } from './page-forms.ts';

// The passkey steps (5.) between a sign-in on the hosted pages and consent:
// - Step-up: the client asked for a phishing-resistant sign-in (acr_values) and this one is not; an account with
//   a passkey is asked for it (or may go on without, and the tokens say so); one without goes straight on.
// - Offer: after a sign-up or a PIN's sign-in, in a browser whose page found a platform authenticator that
//   verifies its user, an account with no passkey is offered one. "Not now" is remembered in that browser for
//   30 days.

/** The cookie that remembers "Not now", and for how long. */
export const PASSKEY_LATER_COOKIE = 'callsign_passkey_later';
export const PASSKEY_LATER_SECONDS = 30 * 24 * 3600;

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

/** A last page's view: the client's brand, and no way back to a step that is over. */
const brandedView = (ctx: FormContext) => ({ ...ctx.view, brand: clientBrand(ctx.client, ctx.view) });

/** The services these steps use. */
type Services = Pick<
  Container,
  | 'authorization'
  | 'authorizationRequests'
  | 'clock'
  | 'config'
  | 'deviceAuthorizations'
  | 'logos'
  | 'passkeys'
  | 'profiles'
>;

/** A browser at a step after its sign-in: its answer, its page's context and state, and who signed in. */
export interface SignedInStep {
  reply: FastifyReply;
  ctx: FormContext;
  st: PageState;
  who: SignedIn;
}

/** A sign-in just proved on a form. */
export interface ProvedSignIn {
  reply: FastifyReply;
  ctx: FormContext;
  st: PageState;
  user: UserRow;
  /** how it was proved (RFC 8176 methods) */
  amr: string[];
  /** the form's word that this browser can make a passkey */
  platformAuthenticator?: boolean;
  /** what a PIN reset removed, where the sign-in was one */
  removed?: RemovedByReset;
}

export interface AuthorizationSteps {
  signedIn(proved: ProvedSignIn): Promise<FastifyReply>;
  passkeyStep(at: SignedInStep & { platformAuthenticator?: boolean }): Promise<FastifyReply>;
  consentStep(at: SignedInStep): Promise<FastifyReply>;
  finish(at: SignedInStep): Promise<FastifyReply>;
  denied(at: SignedInStep): Promise<FastifyReply>;
}

/** What every route of the hosted flow is given: the page's answers, and the steps after a sign-in. */
export interface PageFlow {
  page: PageAnswers;
  steps: AuthorizationSteps;
}

/** The page's answers and the steps, for the services of the hosted pages. */
export function pageFlow(c: Services & Parameters<typeof pageAnswers>[0]): PageFlow {
  const page = pageAnswers(c);
  return { page, steps: authorizationSteps(c, page) };
}

export function authorizationSteps(c: Services, page: PageAnswers): AuthorizationSteps {
  const { cookie, html, redirectTo, sealed } = page;

  /** 4. The single sign-on cookie, then on; after a reset that removed ways in, the page says so first. */
  const signedIn = async ({ reply, ctx, st, user, amr, platformAuthenticator, removed }: ProvedSignIn) => {
    const who = { userId: user.id, authTime: c.clock.now(), pinVersion: user.pin_version, amr };
    const sso = await c.authorization.startSso(who);
    reply.header('Set-Cookie', cookie(SSO_COOKIE, sso.token, sso.maxAgeSeconds));
    if (!removed || (removed.passkeys === 0 && !removed.recovery_codes))
      return passkeyStep({ reply, ctx, st, who, platformAuthenticator });
    const state = sealed({ ...signedInState(st.req, who), step: 'reset_removed', removed }, ctx.csrf);
    return html(reply, 200, resetRemovedPage({ ...ctx, state }, removed), st.req.redirectUri);
  };

  /** 5. A passkey step when one is due, else on to consent. */
  const passkeyStep = async (at: SignedInStep & { platformAuthenticator?: boolean }) => {
    const { reply, ctx, st, who } = at;
    const step = await passkeyStepAfter(c, reply.request, st.req, who, at.platformAuthenticator ?? false);
    if (!step) return consentStep(at);
    // Prompt=none shows no page: the offer is left for another time; a step-up the client asked for needs the
    // person, so the client hears so rather than a code at a level it did not ask for.
    if (st.req.prompt?.includes('none')) {
      if (step === 'passkey_offer') return consentStep(at);
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

  /** 6. Consent when this client needs it (prompt=consent asks again; prompt=none shows no page), else finish. */
  const consentStep = async (at: SignedInStep) => {
    const { reply, ctx, st, who } = at;
    // The account page's own sign-in ends back on it, with no consent.
    if (isAccountPage(st.req.clientId)) return finish(at);
    // A device's request always asks: the person confirms the app their code signs in (RFC 8628 §5.4).
    const asked = st.req.prompt?.includes('consent') || st.req.device !== undefined;
    if (!asked && !(await c.authorization.needsConsent(who.userId, ctx.client, st.req.scope)))
      return finish(at);
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
    return html(reply, 200, consentPage(shown, st.req), st.req.redirectUri);
  };

  /**
   * 7. The code back to the client (RFC 6749 §4.1.2); the account page's sign-in goes back to it instead, and a
   * device's is held for its next poll, the page saying so.
   */
  const finish = async ({ reply, ctx, st, who }: SignedInStep) => {
    if (isAccountPage(st.req.clientId)) return reply.redirect(accountPageLocation(st.req.state), 303);
    const device = st.req.device;
    if (device !== undefined) {
      if (!(await c.deviceAuthorizations.allow({ ...st.req, device }, who)))
        throw new PageError(400, 'error.device_expired');
      return html(reply, 200, deviceAllowedPage(brandedView(ctx), ctx.client.client_name));
    }
    // A pushed request gives one code: a second tab that reaches here after the first finds it ended.
    const pushed = st.req.pushedRequest;
    if (pushed && !(await c.authorizationRequests.finishPushed(pushed)))
      throw new PageError(400, 'error.expired_request');
    const code = await c.authorization.issueCode(who, st.req);
    return redirectTo(reply, st.req.redirectUri, { code, state: st.req.state });
  };

  /** Consent denied: access_denied back to the client (ending a pushed request as a code would), or the device told. */
  const denied = async ({ reply, ctx, st }: SignedInStep) => {
    const device = st.req.device;
    if (device !== undefined) {
      if (!(await c.deviceAuthorizations.deny(device))) throw new PageError(400, 'error.device_expired');
      return html(reply, 200, deviceDeniedPage(brandedView(ctx), ctx.client.client_name));
    }
    if (st.req.pushedRequest) await c.authorizationRequests.finishPushed(st.req.pushedRequest);
    return redirectTo(reply, st.req.redirectUri, {
      error: 'access_denied',
      error_description: 'the user denied the request',
      state: st.req.state,
    });
  };

  return { signedIn, passkeyStep, consentStep, finish, denied };
}
