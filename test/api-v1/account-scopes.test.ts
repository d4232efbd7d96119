import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type SignedUp, signUp, type TestApp } from '../helpers/app.ts';
import {
  ADMIN_TOKEN,
  accessTokenFor,
  authorizationParams,
  authorizeUrl,
  authorizeWithPin,
  decideConsent,
  exchangeCode,
  pkce,
  REDIRECT,
  registerClient,
  signInForSso,
} from '../helpers/oauth.ts';

describe('what a user allows is what the consent page says; deletion needs the same proof everywhere', () => {
  let t: TestApp;
  let user: SignedUp;
  before(async () => {
    t = await createTestApp({
      env: { ADMIN_TOKEN, RATE_LIMITS: 'signin_phone=1000/900,signin_address=1000/900' },
    });
    user = await signUp(t);
  });
  after(() => t.close());

  const api = (method: string, token: string, body?: unknown) =>
    t.request(method, '/api/v1/users/me', { token, body });

  test('a REST access token cannot delete on /api/v1: it does not carry account:delete', async () => {
    const u = await signUp(t);
    const res = await api('DELETE', u.access_token, { confirm: true });
    assert.equal(res.status, 403);
    assert.equal(res.body.error, 'insufficient_scope');
    assert.equal((await api('GET', u.access_token)).status, 200, 'still there');
  });

  test('account:delete needs the PIN entered within 5 minutes; prompt=login gets a fresh one', async () => {
    const u = await signUp(t);
    const client = await registerClient(t, {
      token_endpoint_auth_method: 'none',
      scope: 'openid account:delete',
    });
    const stale = await accessTokenFor(t, client.client_id, u, 'openid account:delete');
    t.clock.advance(301);
    const refused = await api('DELETE', stale, { confirm: true });
    assert.equal(refused.status, 401);
    // RFC 9470's step-up challenge: the error, and the most a sign-in's age may be.
    assert.equal(refused.body.error, 'insufficient_user_authentication');
    assert.match(refused.body.error_description, /recent sign-in/);
    assert.match(
      String(refused.headers['www-authenticate']),
      /^Bearer error="insufficient_user_authentication", error_description="[^"]+", max_age=300$/,
    );

    // The single sign-on would answer without a PIN; prompt=login asks for it again.
    const { verifier, challenge } = pkce();
    const params = authorizationParams(client.client_id, challenge, {
      scope: 'openid account:delete',
      prompt: 'login',
    });
    const { cookie } = await signInForSso(
      t,
      authorizationParams(client.client_id, pkce().challenge, { scope: 'openid' }),
      u,
    );
    const form = await t.request('GET', authorizeUrl(params), { headers: { cookie } });
    assert.equal(form.status, 200, 'prompt=login shows the sign-in form despite the single sign-on');
    const back = await authorizeWithPin(t, params, u);
    const fresh = await exchangeCode(t, client.client_id, back.searchParams.get('code') as string, verifier);
    assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
    assert.equal((await api('DELETE', fresh.body.access_token, { confirm: true })).status, 204);
  });

  test('profile:write and account:delete: consent texts of their own, only for clients registered with them', async () => {
    const shop = await registerClient(t, {
      token_endpoint_auth_method: 'none',
      first_party: false,
      scope: 'openid profile profile:write account:delete',
    });
    const { cookie } = await signInForSso(
      t,
      authorizationParams(shop.client_id, pkce().challenge, { scope: 'openid' }),
      user,
    );
    const { challenge } = pkce();
    const scope = 'openid profile profile:write account:delete';
    const page = await t.request(
      'GET',
      authorizeUrl(authorizationParams(shop.client_id, challenge, { scope })),
      {
        headers: { cookie },
      },
    );
    assert.equal(page.status, 200);
    const text = String(page.body);
    assert.match(text, /See your name and profile picture/);
    assert.match(text, /Change your name, picture and app data/);
    assert.match(text, /Delete your account/);
    const back = await decideConsent(t, text, cookie, 'allow');
    assert.ok(back.searchParams.get('code'));

    const readOnly = await registerClient(t, { token_endpoint_auth_method: 'none', scope: 'openid profile' });
    const asked = await t.request(
      'GET',
      authorizeUrl(authorizationParams(readOnly.client_id, challenge, { scope: 'openid profile:write' })),
    );
    assert.equal(asked.status, 302);
    const denied = new URL(String(asked.headers.location));
    assert.equal(`${denied.origin}${denied.pathname}`, REDIRECT);
    assert.equal(denied.searchParams.get('error'), 'invalid_scope');
  });

  test('discovery lists both scopes', async () => {
    const doc = (await t.request('GET', '/.well-known/openid-configuration')).body;
    for (const s of ['profile', 'profile:write', 'account:delete'])
      assert.ok(doc.scopes_supported.includes(s), s);
  });
});
