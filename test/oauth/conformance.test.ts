import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { createTestApp, type SignedUp, signUp, type TestApp } from '../helpers/app.ts';
import {
  ADMIN_TOKEN,
  authorizationParams,
  authorizeUrl,
  authorizeWithPin,
  exchangeCode,
  pkce,
  REDIRECT,
  registerClient,
  signInForSso,
} from '../helpers/oauth.ts';

describe('OpenID Connect conformance found with real relying-party libraries', () => {
  let t: TestApp;
  let user: SignedUp;
  let pub: { client_id: string };
  before(async () => {
    t = await createTestApp({
      env: { ADMIN_TOKEN, RATE_LIMITS: 'signin_phone=1000/900,signin_address=1000/900' },
    });
    user = await signUp(t);
    pub = await registerClient(t, { token_endpoint_auth_method: 'none' });
  });
  after(() => t.close());

  const postAuthorize = (params: Record<string, string>, cookie = '') =>
    t.request('POST', '/authorize', {
      body: new URLSearchParams(params).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    });
  /** A page with its per-request values (sealed state, CSRF token) taken out. */
  const pageShape = (body: unknown) =>
    String(body)
      .replace(/name="state" value="[^"]+"/g, '')
      .replace(/name="csrf" value="[^"]+"/g, '')
      .replace(/state=[^"]+/g, '');

  test('POST /authorize with the request as a form behaves exactly as GET (OIDC Core §3.1.2.1)', async () => {
    const params = authorizationParams(pub.client_id, pkce().challenge);
    const get = await t.request('GET', authorizeUrl(params));
    const post = await postAuthorize(params);
    assert.equal(post.status, 200);
    assert.equal(post.status, get.status);
    assert.equal(pageShape(post.body), pageShape(get.body));

    // Signed in: the code comes back at once, as for GET.
    const { cookie } = await signInForSso(t, authorizationParams(pub.client_id, pkce().challenge), user);
    const { verifier, challenge } = pkce();
    const withSso = await postAuthorize(authorizationParams(pub.client_id, challenge), cookie);
    assert.equal(withSso.status, 302);
    const back = new URL(String(withSso.headers.location));
    assert.equal(`${back.origin}${back.pathname}`, REDIRECT);
    const tokens = await exchangeCode(t, pub.client_id, back.searchParams.get('code') as string, verifier);
    assert.equal(tokens.status, 200);

    // Its errors are the GET's: an error page before the redirect URI is trusted, a redirect after.
    const unknown = await postAuthorize({ ...params, redirect_uri: 'https://evil.example/cb' });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.headers.location, undefined);
    const none = await postAuthorize({ ...params, prompt: 'none' });
    assert.equal(new URL(String(none.headers.location)).searchParams.get('error'), 'login_required');
  });

  test("another site's form post to /authorize goes on as the same GET (the sign-on cookie comes with it)", async () => {
    const params = { ...authorizationParams(pub.client_id, pkce().challenge), scope: 'openid phone' };
    const res = await t.request('POST', '/authorize', {
      body: `${new URLSearchParams(params)}&state=twice`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
    });
    assert.equal(res.status, 303);
    const next = new URL(String(res.headers.location), 'http://callsign.test');
    assert.equal(next.pathname, '/authorize');
    assert.deepEqual(next.searchParams.getAll('state'), ['st-1', 'twice'], 'a repeated field stays repeated');
    assert.equal(next.searchParams.get('code_challenge'), params.code_challenge);
  });

  test('a request object that is not signed, and a request_uri to fetch, are answered, never ignored', async () => {
    const params = authorizationParams(pub.client_id, pkce().challenge, { state: 'ro-1' });
    for (const [name, error] of [
      ['request', 'invalid_request_object'],
      ['request_uri', 'request_uri_not_supported'],
    ]) {
      const value = name === 'request' ? 'eyJhbGciOiJub25lIn0.e30.' : 'https://rp.example/request.jwt';
      const res = await t.request('GET', authorizeUrl({ ...params, [name]: value }));
      assert.equal(res.status, 302, name);
      const back = new URL(String(res.headers.location));
      assert.equal(back.searchParams.get('error'), error);
      assert.equal(back.searchParams.get('state'), 'ro-1');
      // Before the client and redirect URI are validated: the error page, never a redirect.
      const untrusted = await t.request(
        'GET',
        authorizeUrl({ ...params, [name]: value, redirect_uri: 'https://evil.example/cb' }),
      );
      assert.equal(untrusted.status, 400);
      assert.equal(untrusted.headers.location, undefined);
    }
    const doc = (await t.request('GET', '/.well-known/openid-configuration')).body;
    assert.equal(doc.request_parameter_supported, true);
    assert.equal(doc.request_uri_parameter_supported, false, 'only the request_uri PAR gives');
  });

  test('phone_number and phone_number_verified beside phone and phone_verified, in the ID token and userinfo', async () => {
    const { verifier, challenge } = pkce();
    const back = await authorizeWithPin(t, authorizationParams(pub.client_id, challenge), user);
    const tokens = (await exchangeCode(t, pub.client_id, back.searchParams.get('code') as string, verifier))
      .body;
    const id = decodeJwt(tokens.id_token);
    const info = (await t.request('GET', '/oauth/userinfo', { token: tokens.access_token })).body;
    for (const claims of [id, info]) {
      assert.equal(claims.phone_number, user.phone);
      assert.equal(claims.phone_number_verified, true);
      assert.equal(claims.phone, user.phone);
      assert.equal(claims.phone_verified, true);
    }
    const withoutPhone = await authorizeWithPin(
      t,
      authorizationParams(pub.client_id, pkce().challenge, { scope: 'openid' }),
      user,
    );
    assert.ok(withoutPhone.searchParams.get('code'));
    const doc = (await t.request('GET', '/.well-known/openid-configuration')).body;
    for (const claim of ['phone', 'phone_verified', 'phone_number', 'phone_number_verified'])
      assert.ok(doc.claims_supported.includes(claim), claim);
  });
});
