import assert from 'node:assert/strict';
import { type createLocalJWKSet, jwtVerify } from 'jose';
import type { SignedUp, TestApp } from './app.ts';
import {
  authorizationParams,
  authorizeWithPin,
  basicAuth,
  pkce,
  REDIRECT,
  registerClient,
  tokenRequest,
} from './oauth.ts';

// A Shared Signals receiver's side in tests: a confidential client, its calls to the transmitter, and sessions
// of accounts with it (so that it knows them).

export interface SignalsClient {
  id: string;
  secret: string;
}

export const CAEP = 'https://schemas.openid.net/secevent/caep/event-type';
export const RISC = 'https://schemas.openid.net/secevent/risc/event-type';
export const ALL_EVENTS = [
  `${CAEP}/session-revoked`,
  `${CAEP}/credential-change`,
  `${CAEP}/assurance-level-change`,
  `${RISC}/account-disabled`,
  `${RISC}/account-enabled`,
  `${RISC}/account-purged`,
  `${RISC}/identifier-changed`,
  'urn:callsign:secevent:event-type:phone-risk',
];

export async function confidentialClient(t: TestApp): Promise<SignalsClient> {
  const c = await registerClient(t, { token_endpoint_auth_method: 'client_secret_basic' });
  return { id: c.client_id, secret: c.client_secret as string };
}

/** A call to the transmitter as the client (client_secret_basic). */
export const ssfCall = (t: TestApp, client: SignalsClient, method: string, path: string, body?: unknown) =>
  t.request(method, path, { body, headers: { authorization: basicAuth(client) } });

/** A session of `u` with the client (for these scopes), through the hosted page and the token endpoint. */
export async function sessionWith(t: TestApp, client: SignalsClient, u: SignedUp, scope = 'openid phone') {
  const { verifier, challenge } = pkce();
  const back = await authorizeWithPin(t, authorizationParams(client.id, challenge, { scope }), u);
  const code = back.searchParams.get('code') as string;
  const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier };
  const res = await tokenRequest(t, form, client);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as { access_token: string; refresh_token: string };
}

/** The client revokes a session's refresh token (RFC 7009): the session ends. */
export async function endSession(t: TestApp, client: SignalsClient, refreshToken: string) {
  const body = new URLSearchParams({ token: refreshToken }).toString();
  const headers = { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(client) };
  assert.equal((await t.request('POST', '/oauth/revoke', { body, headers })).status, 200);
}

/** A SET verified as the receiver would (its keys, issuer, audience and type): its one event and its subject. */
export async function readSet(
  t: TestApp,
  jwks: ReturnType<typeof createLocalJWKSet>,
  set: string,
  client: SignalsClient,
) {
  const { payload } = await jwtVerify(set, jwks, {
    issuer: t.c.config.baseUrl,
    audience: client.id,
    typ: 'secevent+jwt',
    currentDate: t.clock.now(),
  });
  const [[type, members]] = Object.entries(payload.events as Record<string, Record<string, unknown>>);
  return { type, members, subject: payload.sub_id };
}
