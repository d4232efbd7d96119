import type { FastifyRequest } from 'fastify';
import type { Container } from '../../composition/container.ts';
import { isPhoneCountry } from '../../config/look-settings.ts';
import { offeredChannels } from '../../config/messaging-config.ts';
import type { RemovedByReset } from '../../domain/accounts/pin-reset-sessions.ts';
import { safeEqual } from '../../domain/crypto.ts';
import type { SignedIn } from '../../domain/oauth/authorization.ts';
import type { AuthorizationRequest } from '../../domain/oauth/authorization-request.ts';
import { recordedAmr } from '../../domain/sessions/authentication.ts';
import { acceptedLanguages } from '../../i18n/languages.ts';
import type { ClientRow } from '../../storage/repositories/clients.ts';
import { CSRF_COOKIE, pageCookieOf } from '../cookies/page-cookies.ts';
import { PageError } from '../errors/pages.ts';
import type { FormContext } from '../pages/authorize-pages.ts';
import { viewOf } from '../pages/page-language.ts';
import { unseal } from '../pages/page-state.ts';
import { suggestedCountry } from '../pages/phone-field.ts';
import { sealedForBrowser } from './browser-binding.ts';

// What the hosted authorization page's forms carry between steps, and how a post of one is checked.

/** A passkey step between a sign-in and consent (authorization-steps.ts). */
export type PasskeyStep = 'passkey_offer' | 'passkey_step_up';

/** The services these helpers use. */
type Services = Pick<Container, 'clients' | 'clock' | 'config' | 'logos' | 'pageStateKeys'>;

/** What the page's forms carry, sealed (page-state.ts). */
export interface PageState {
  req: AuthorizationRequest;
  phone?: string;
  /** the number typed on a sign-in that was refused, for the phone field of its "Forgot PIN?" */
  typedPhone?: string;
  /** what the code sent to `phone` (and the temp token it gave) is for, when not a sign-up */
  codePurpose?: 'signin' | 'pin_reset';
  /** when (ms) the last code of this flow was sent */
  codeSentAt?: number;
  tempToken?: string;
  /** signed in, awaiting consent: who, when (ms), and the version of the PIN they proved */
  userId?: string;
  authTime?: number;
  pinVersion?: number;
  /** how they proved who they are (RFC 8176 methods) */
  amr?: string[];
  /** signed in, at a passkey step before consent (authorization-steps.ts), or told what a PIN reset removed */
  step?: PasskeyStep | 'reset_removed';
  /** at `reset_removed`: what the reset removed */
  removed?: RemovedByReset;
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
export type FormFields = { csrf?: string; state?: string; country?: string };

export async function checkedForm(
  c: Services,
  request: FastifyRequest,
  form: FormFields | undefined,
): Promise<{ st: PageState; client: ClientRow; ctx: FormContext }> {
  const csrf = pageCookieOf(request, c.config.authUrl, CSRF_COOKIE);
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
    ctx: {
      client,
      csrf,
      state: form.state,
      view,
      country: pageCountry(c, request, form.country),
      ...signInWays(c),
    },
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

/** The ways to sign in the pages offer: the PIN, passkeys, and a code by the first channel offered. */
export const signInWays = (c: Pick<Services, 'config'>) => ({
  pin: c.config.signInMethods.has('pin'),
  passkeys: c.config.signInMethods.has('passkey'),
  codeChannel: c.config.signInMethods.has('code') ? offeredChannels(c.config.messaging)[0] : undefined,
});

/** A later step's state for who signed in: what signedInOf reads back. */
export const signedInState = (req: AuthorizationRequest, who: SignedIn): UnboundState => ({
  req,
  userId: who.userId,
  authTime: who.authTime.getTime(),
  pinVersion: who.pinVersion,
  amr: who.amr,
});

/** Who a state signed in at a later step names, when it names one. */
export function signedInOf(st: PageState): SignedIn | undefined {
  if (!st.userId || st.authTime === undefined || st.pinVersion === undefined) return undefined;
  return {
    userId: st.userId,
    authTime: new Date(st.authTime),
    pinVersion: st.pinVersion,
    amr: recordedAmr(st.amr),
  };
}

/**
 * The sealed state of a link between the page's forms (sign-in and sign-up, the language menu's way back),
 * with its live client, as this browser may use it: a state sealed for another browser is only its
 * authorization request, sealed anew for this one, so the link shows the request's start.
 */
export async function linkedState(
  c: Pick<Services, 'clients' | 'clock' | 'pageStateKeys'>,
  flow: { sealed: (st: UnboundState, csrf: string) => string },
  sealedState: unknown,
  csrf: string,
) {
  const st = unseal<PageState>(c.pageStateKeys, sealedState, c.clock.now());
  const client = st && (await c.clients.findClient(st.req.clientId));
  if (!st || !client || typeof sealedState !== 'string') return undefined;
  if (sealedForBrowser(st, csrf)) return { st, client, state: sealedState };
  return { st: { req: st.req }, client, state: flow.sealed({ req: st.req }, csrf) };
}
