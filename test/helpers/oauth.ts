import { createHash, randomBytes } from 'node:crypto';
import type { Answer, TestApp } from './app.ts';

export const ADMIN_TOKEN = 'admin-token-for-oauth-tests-01234';
export const REDIRECT = 'https://rp.example/callback';

/** A request to the admin API (D36) with the tests' admin token. */
export const adminRequest = (t: TestApp, method: string, url: string, body?: unknown) =>
  t.request(method, `/admin/v1${url}`, { token: ADMIN_TOKEN, body });

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export async function registerClient(t: TestApp, extra: Record<string, unknown> = {}) {
  const res = await adminRequest(t, 'POST', '/clients', {
    client_name: 'RP',
    redirect_uris: [REDIRECT],
    scope: 'openid profile phone',
    first_party: true,
    ...extra,
  });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body as { client_id: string; client_secret?: string };
}

/** RFC 8628 §3.4: the device authorization grant's type. */
export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** A TV's public client: the device grant (and `grants` beside it), no redirect URIs, first party. */
export const registerDeviceClient = (t: TestApp, grants: string[] = []) =>
  registerClient(t, {
    client_name: 'Living Room TV',
    redirect_uris: undefined,
    grant_types: [DEVICE_GRANT, ...grants],
    token_endpoint_auth_method: 'none',
  });

export const authorizeUrl = (params: Record<string, string>) => `/authorize?${new URLSearchParams(params)}`;

/** The hosted page's sign-in form: GET /authorize, and what its form posts back (sealed state, CSRF token). */
export async function signInForm(t: TestApp, params: Record<string, string>) {
  const page = await t.request('GET', authorizeUrl(params));
  const state = /name="state" value="([^"]+)"/.exec(String(page.body))?.[1] as string;
  const csrf = /callsign_csrf=([^;]+)/.exec(String(page.headers['set-cookie']))?.[1] as string;
  return { page, state, csrf };
}

/** Posts the hosted page's sign-in form with this phone and PIN. */
export const postSignIn = (
  t: TestApp,
  form: { state: string; csrf: string },
  user: { phone: string; pin: string },
) =>
  t.request('POST', '/authorize/signin', {
    body: new URLSearchParams({ ...form, phone: user.phone, pin: user.pin }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `callsign_csrf=${form.csrf}` },
  });

/** Signs in on the hosted page; answers the cookies that carry its single sign-on (and CSRF) onward. */
export async function signInForSso(
  t: TestApp,
  params: Record<string, string>,
  u: { phone: string; pin: string },
) {
  const { state, csrf } = await signInForm(t, params);
  const signedIn = await postSignIn(t, { state, csrf }, u);
  const setCookie = [signedIn.headers['set-cookie'] ?? []]
    .flat()
    .map(String)
    .find((c) => c.startsWith('callsign_sso=')) as string;
  const sso = /callsign_sso=([^;]+)/.exec(setCookie)?.[1] as string;
  return { setCookie, cookie: `callsign_csrf=${csrf}; callsign_sso=${sso}` };
}

/** Posts the consent page's form with this decision; answers where the browser is sent back to. */
export async function decideConsent(t: TestApp, page: string, cookie: string, decision: 'allow' | 'deny') {
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(page)?.[1] as string;
  const res = await t.request('POST', '/authorize/consent', {
    body: new URLSearchParams({ state: field('state'), csrf: field('csrf'), decision }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
  });
  if (res.status !== 302) throw new Error(`consent answered ${res.status}`);
  return new URL(String(res.headers.location));
}

/** The hosted page driven over plain HTTP: GET /authorize, then the sign-in form; answers where it redirects. */
export async function authorizeWithPin(
  t: TestApp,
  params: Record<string, string>,
  user: { phone: string; pin: string },
) {
  const { page, state, csrf } = await signInForm(t, params);
  if (page.status === 302) return new URL(String(page.headers.location));
  const res = await postSignIn(t, { state, csrf }, user);
  if (res.status !== 302) throw new Error(`sign-in answered ${res.status}`);
  return new URL(String(res.headers.location));
}

/** RFC 6749 §2.3.1: client_secret_basic's Authorization header. */
export const basicAuth = (c: { id: string; secret: string }) =>
  `Basic ${Buffer.from(`${c.id}:${c.secret}`).toString('base64')}`;

export const tokenRequest = (
  t: TestApp,
  form: Record<string, string>,
  basic?: { id: string; secret: string },
) =>
  t.request('POST', '/oauth/token', {
    body: new URLSearchParams(form).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(basic ? { authorization: basicAuth(basic) } : {}),
    },
  });

/** An authorization request of a public client, with PKCE S256. */
export const authorizationParams = (
  clientId: string,
  challenge: string,
  extra: Record<string, string> = {},
) => ({
  response_type: 'code',
  client_id: clientId,
  redirect_uri: REDIRECT,
  scope: 'openid phone',
  state: 'st-1',
  code_challenge: challenge,
  code_challenge_method: 'S256',
  ...extra,
});

/** A public client's code exchange at the token endpoint (RFC 6749 §4.1.3, PKCE), with any extra fields. */
export const exchangeCode = (
  t: TestApp,
  clientId: string,
  code: string,
  verifier: string,
  extra: Record<string, string> = {},
) =>
  tokenRequest(t, {
    grant_type: 'authorization_code',
    client_id: clientId,
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    ...extra,
  });

/** A public client's refresh at the token endpoint (RFC 6749 §6). */
export const refreshGrant = (t: TestApp, clientId: string, refreshToken: string) =>
  tokenRequest(t, { grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken });

/** A public client's access token of these scopes, through the hosted page and the token endpoint. */
export async function accessTokenFor(
  t: TestApp,
  clientId: string,
  user: { phone: string; pin: string },
  scope: string,
) {
  const { verifier, challenge } = pkce();
  const back = await authorizeWithPin(t, authorizationParams(clientId, challenge, { scope }), user);
  const res = await exchangeCode(t, clientId, back.searchParams.get('code') as string, verifier);
  return res.body.access_token as string;
}

/** Posts one of the hosted page's forms as its browser would: the fields and the CSRF token, with its cookie. */
export const postPageForm = (
  t: TestApp,
  path: string,
  csrf: string,
  fields: Record<string, string>,
  moreCookies = '',
) =>
  t.request('POST', path, {
    body: new URLSearchParams({ csrf, ...fields }).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: `callsign_csrf=${csrf}${moreCookies}`,
    },
  });

/** A hidden field of a hosted page (its first form's, where several carry it). */
export const pageField = (page: Answer, name = 'state') =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(String(page.body))?.[1] as string;
