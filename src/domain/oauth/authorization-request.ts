import type { ClientRow } from '../../storage/repositories/clients.ts';
import { personScopesOf } from '../clients/client-scopes.ts';
import { isWellFormedChallenge } from './pkce.ts';
import { type RequestParametersDeps, requestParameters } from './request-parameters.ts';
import { requestedAcr } from './requested-acr.ts';

export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  scope: string;
  state: string;
  codeChallenge: string;
  nonce: string | null;
  /** OIDC Core §3.1.2.1: none, login, consent, select_account; and create; absent when not given */
  prompt?: string[];
  /** OIDC Core §3.1.2.1: the longest time since the user last signed in, in seconds; absent when not given */
  maxAge?: number;
  /** OIDC Core §3.1.2.1: the phone number the client expects, put in the sign-in form */
  loginHint?: string;
  /** OIDC `ui_locales`: the languages the client would like the page in, most wanted first */
  uiLocales?: string;
  /** OIDC Core §3.1.2.1: the user an ID token of the client's, given as `id_token_hint`, names */
  hintedUserId?: string;
  /** OIDC Core §3.1.2.1: the first `acr_values` entry this service knows (requested-acr.ts) */
  acr?: string;
  /** RFC 9126: the hash of the pushed request this came from, which its code (or refusal) finishes */
  pushedRequest?: string;
  /** RFC 9449 §10: the DPoP key whose proof must come with the code's exchange */
  dpopJkt?: string;
  /**
   * RFC 8628: the device request (its device code's hash) this sign-in allows or denies; the answer is a page
   * of this service, never a redirect, and `redirectUri` is the verification page's own
   */
  device?: string;
}

export interface AuthorizationRequestDeps extends RequestParametersDeps {
  /** live clients only */
  findClient(clientId: string): Promise<ClientRow | undefined>;
  /** the client and user an ID token of ours names, expired or not; undefined for anything else */
  idTokenHint(token: string): Promise<{ aud: string; sub: string } | undefined>;
}

/** `create` is OpenID Connect's "Initiating User Registration" (prompt=create): open on sign-up. */
export const PROMPT_VALUES = ['none', 'login', 'consent', 'select_account', 'create'];

/**
 * Whether the user must sign in on the page although a single sign-on exists: prompt=login (or
 * select_account: signing in is how another account is chosen), or max_age exceeded; or the single
 * sign-on is not the user the client's `id_token_hint` names.
 */
export function mustSignIn(
  req: AuthorizationRequest,
  sso: { userId: string; authTime: Date },
  now: Date,
): boolean {
  if (req.prompt?.includes('login') || req.prompt?.includes('select_account')) return true;
  if (req.hintedUserId !== undefined && req.hintedUserId !== sso.userId) return true;
  return req.maxAge !== undefined && now.getTime() - sso.authTime.getTime() > req.maxAge * 1000;
}

export type Checked =
  | { ok: true; request: AuthorizationRequest; client: ClientRow }
  /** Before client and redirect_uri are trusted, an error page and never a redirect */
  | { ok: false; page: PageProblem }
  /** after: a redirect with error, error_description and state */
  | {
      ok: false;
      redirect: { redirectUri: string; error: string; description: string; state: string | undefined };
    };

const single = (q: Record<string, unknown>, name: string): string | undefined | null => {
  const v = q[name];
  if (Array.isArray(v)) return null; // RFC 6749 §3.1: a parameter sent twice is an error
  return typeof v === 'string' && v !== '' ? v : undefined;
};

/**
 * Why the request's parameters cannot be read as such: a parameter sent twice or U+0000 in one. An
 * [error, description] pair, or undefined.
 */
function malformedParameter(q: Record<string, unknown>): [string, string] | undefined {
  for (const name of REDIRECTED_PARAMETERS) {
    const value = single(q, name);
    if (value === null) return ['invalid_request', `${name} was sent more than once`];
    if (value?.includes('\u0000')) return ['invalid_request', `${name} must not contain U+0000`];
  }
  return undefined;
}

/** The parameters whose errors go back to the client by redirect, once it and its redirect URI are known. */
const REDIRECTED_PARAMETERS = [
  'response_type',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'nonce',
  'prompt',
  'max_age',
  'login_hint',
  'id_token_hint',
  'ui_locales',
  'dpop_jkt',
];

/**
 * Why a request cannot even be answered to its client: no client named, an unknown one, or a redirect URI it
 * did not register.
 */
export type PageProblem =
  | 'missing_client'
  | 'unknown_client'
  | 'unregistered_redirect'
  /** a pushed request unknown, expired, finished or another client's */
  | 'expired_request';

/**
 * Spec "GET {auth_url}/authorize" checked in the order of D24, on the parameters that count: a pushed
 * request's or a request object's in place of the outer ones (request-parameters.ts).
 */
export async function checkAuthorizationRequest(
  outer: Record<string, unknown>,
  d: AuthorizationRequestDeps,
): Promise<Checked> {
  const clientId = single(outer, 'client_id');
  if (!clientId) return { ok: false, page: 'missing_client' };
  // No client id holds U+0000, and the database could not even look one up.
  if (clientId.includes('\u0000')) return { ok: false, page: 'unknown_client' };
  const client = await d.findClient(clientId);
  if (!client) return { ok: false, page: 'unknown_client' };
  const source = await requestParameters(outer, client, d);
  if ('page' in source) return { ok: false, page: source.page };
  if ('error' in source) {
    // Only a redirect URI the client registered hears of it; the outer one, as nothing inside was accepted.
    const outerUri = single(outer, 'redirect_uri');
    if (!outerUri || !client.redirect_uris.includes(outerUri))
      return { ok: false, page: 'unregistered_redirect' };
    const state = single(outer, 'state') ?? undefined;
    const redirect = { redirectUri: outerUri, error: source.error, description: source.description, state };
    return { ok: false, redirect };
  }
  return checkParameters(source.params, client, d, source.pushedRequest);
}

/** The parameters that count, of a known client, checked in D24's order. */
async function checkParameters(
  q: Record<string, unknown>,
  client: ClientRow,
  d: AuthorizationRequestDeps,
  pushedRequest: string | undefined,
): Promise<Checked> {
  const clientId = client.client_id;
  const redirectUri = single(q, 'redirect_uri');
  // Exact string match, nothing normalised.
  if (!redirectUri || !client.redirect_uris.includes(redirectUri)) {
    return { ok: false, page: 'unregistered_redirect' };
  }

  const state = single(q, 'state') ?? undefined;
  const fail = (error: string, description: string): Checked => ({
    ok: false,
    redirect: { redirectUri, error, description, state },
  });
  const malformed = malformedParameter(q);
  if (malformed) return fail(...malformed);
  if (single(q, 'response_type') !== 'code') {
    return single(q, 'response_type') === undefined
      ? fail('invalid_request', 'response_type is required')
      : fail('unsupported_response_type', 'only response_type=code is supported');
  }
  if (!client.grant_types.includes('authorization_code')) {
    return fail('unauthorized_client', 'this client may not use the authorization code grant');
  }
  if (!state) return fail('invalid_request', 'state is required');
  const scopes = (single(q, 'scope') ?? '').split(' ').filter(Boolean);
  if (!scopes.length) return fail('invalid_request', 'scope is required');
  const allowed = personScopesOf(client.scope);
  if (scopes.some((s) => !allowed.includes(s)))
    return fail('invalid_scope', `this client may ask for: ${allowed.join(' ')}`);
  // RFC 9700 §2.1.1, D24: PKCE with S256 always; `plain` is refused.
  const challenge = single(q, 'code_challenge');
  if (!challenge) return fail('invalid_request', 'code_challenge is required (PKCE)');
  const method = single(q, 'code_challenge_method');
  if (method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256');
  if (!isWellFormedChallenge(challenge))
    return fail('invalid_request', 'code_challenge must be 43 base64url characters');
  const nonce = single(q, 'nonce') ?? null;
  if (nonce && nonce.length > 255) return fail('invalid_request', 'nonce is too long');
  const prompt = (single(q, 'prompt') ?? undefined)?.split(' ').filter(Boolean);
  if (prompt?.some((p) => !PROMPT_VALUES.includes(p)))
    return fail('invalid_request', `prompt may hold ${PROMPT_VALUES.join(', ')}`);
  if (prompt?.includes('none') && prompt.length > 1)
    return fail('invalid_request', 'prompt=none cannot be combined with other values');
  // Only a hint: shown in the form, never trusted; one too long to be a phone number is ignored.
  const loginHint = single(q, 'login_hint') ?? undefined;
  // Only a wish, like the hint: languages not spoken here are passed over, and a list too long is ignored.
  const uiLocales = single(q, 'ui_locales') ?? undefined;
  const maxAge = single(q, 'max_age') ?? undefined;
  // A wish as well: the first level this service knows is sought, and met where the account can.
  const acr = requestedAcr(single(q, 'acr_values') ?? undefined);
  if (maxAge !== undefined && !/^\d{1,9}$/.test(maxAge))
    return fail('invalid_request', 'max_age must be a whole number of seconds');
  // An ID token this client was given (expired or not) names the user the client expects.
  const hint = single(q, 'id_token_hint');
  const hinted = hint ? await d.idTokenHint(hint) : undefined;
  if (hint && hinted?.aud !== clientId)
    return fail('invalid_request', 'id_token_hint is not an ID token issued to this client');
  // RFC 9449 §10: a JWK SHA-256 thumbprint, base64url.
  const dpopJkt = single(q, 'dpop_jkt') ?? undefined;
  if (dpopJkt !== undefined && !/^[A-Za-z0-9_-]{43}$/.test(dpopJkt))
    return fail('invalid_request', 'dpop_jkt must be a JWK SHA-256 thumbprint (43 base64url characters)');

  return {
    ok: true,
    client,
    request: {
      clientId,
      redirectUri,
      scope: [...new Set(scopes)].join(' '),
      state,
      codeChallenge: challenge,
      nonce,
      ...(prompt?.length ? { prompt: [...new Set(prompt)] } : {}),
      ...(maxAge !== undefined ? { maxAge: Number(maxAge) } : {}),
      ...(loginHint && loginHint.length <= 32 ? { loginHint } : {}),
      ...(uiLocales && uiLocales.length <= 200 ? { uiLocales } : {}),
      ...(hinted ? { hintedUserId: hinted.sub } : {}),
      ...(acr ? { acr } : {}),
      ...(pushedRequest ? { pushedRequest } : {}),
      ...(dpopJkt ? { dpopJkt } : {}),
    },
  };
}
