import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { createTestApp, signUp, type TestApp } from '../helpers/app.ts';
import { SoftAuthenticator } from '../helpers/authenticator.ts';
import {
  ADMIN_TOKEN,
  authorizationParams,
  authorizeWithPin,
  basicAuth,
  exchangeCode,
  pkce,
  registerClient,
  tokenRequest,
} from '../helpers/oauth.ts';

const ONE_FACTOR = 'urn:callsign:acr:1fa';
const PHISHING_RESISTANT = 'urn:callsign:acr:phr';

describe('tokens say when and how the sign-in was proved (auth_time, amr, acr)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN } });
  });
  after(() => t.close());

  const seconds = () => Math.floor(t.clock.now().getTime() / 1000);
  const claimsOf = (token: string) => decodeJwt(token);

  test('a PIN’s REST tokens: pwd and one factor, kept by a refresh', async () => {
    const s = await signUp(t);
    const signedIn = await t.request('POST', '/auth/signin', { body: { phone: s.phone, pin: s.pin } });
    const at = seconds();
    const first = claimsOf(signedIn.body.data.access_token);
    assert.deepEqual([first.auth_time, first.amr, first.acr], [at, ['pwd'], ONE_FACTOR]);
    t.clock.advance(120);
    const refreshed = await t.request('POST', '/auth/refresh', {
      body: { refresh_token: signedIn.body.data.refresh_token },
    });
    const second = claimsOf(refreshed.body.data.access_token);
    assert.deepEqual([second.auth_time, second.amr, second.acr], [at, ['pwd'], ONE_FACTOR]);
  });

  test('a sign-up by a code sent by SMS: otp and sms; a recovery code: otp; a passkey: phishing-resistant', async () => {
    const s = await signUp(t);
    assert.deepEqual(claimsOf(s.access_token).amr, ['otp', 'sms']);
    const codes = await t.request('POST', '/users/me/recovery-codes', {
      token: s.access_token,
      body: { pin: s.pin },
    });
    const reset = await t.request('POST', '/auth/pin/reset', {
      body: { phone: s.phone, recovery_code: codes.body.data.codes[0], pin: '736251' },
    });
    const recovered = claimsOf(reset.body.data.access_token);
    assert.deepEqual([recovered.amr, recovered.acr], [['otp'], ONE_FACTOR]);

    const key = new SoftAuthenticator('http://callsign.test');
    const options = await t.request('POST', '/passkeys/registration/options', {
      token: reset.body.data.access_token,
    });
    await t.request('POST', '/passkeys/registration', {
      token: reset.body.data.access_token,
      body: { response: key.create(options.body.data) },
    });
    const signInOptions = await t.request('POST', '/auth/passkey/options', { body: {} });
    const byPasskey = await t.request('POST', '/auth/passkey/verify', {
      body: { response: key.get(signInOptions.body.data) },
    });
    const passkey = claimsOf(byPasskey.body.data.access_token);
    assert.deepEqual([passkey.amr, passkey.acr], [['hwk', 'user', 'mfa'], PHISHING_RESISTANT]);
  });

  test('OpenID Connect: the ID token, the access token and introspection say it; a refresh keeps it', async () => {
    const s = await signUp(t);
    const client = await registerClient(t, { scope: 'openid phone' });
    const secret = client.client_secret ?? '';
    const { verifier, challenge } = pkce();
    const back = await authorizeWithPin(t, authorizationParams(client.client_id, challenge), s);
    const at = seconds();
    const code = back.searchParams.get('code') as string;
    const tokens = await exchangeCode(t, client.client_id, code, verifier, { client_secret: secret });
    assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
    for (const token of [tokens.body.id_token, tokens.body.access_token]) {
      const claims = claimsOf(token);
      assert.deepEqual([claims.auth_time, claims.amr, claims.acr], [at, ['pwd'], ONE_FACTOR]);
    }
    t.clock.advance(60);
    const refreshed = await tokenRequest(
      t,
      { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token },
      { id: client.client_id, secret },
    );
    const kept = claimsOf(refreshed.body.access_token);
    assert.deepEqual([kept.auth_time, kept.amr, kept.acr], [at, ['pwd'], ONE_FACTOR]);
    for (const token of [refreshed.body.access_token, refreshed.body.refresh_token]) {
      const introspected = await t.request('POST', '/oauth/introspect', {
        body: new URLSearchParams({ token }).toString(),
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basicAuth({ id: client.client_id, secret }),
        },
      });
      assert.equal(introspected.body.active, true);
      assert.deepEqual(
        [introspected.body.auth_time, introspected.body.amr, introspected.body.acr],
        [at, ['pwd'], ONE_FACTOR],
      );
    }
  });

  test('discovery lists the acr values and the amr, acr and auth_time claims', async () => {
    const doc = (await t.request('GET', '/.well-known/openid-configuration')).body;
    assert.deepEqual(doc.acr_values_supported, [ONE_FACTOR, PHISHING_RESISTANT]);
    for (const claim of ['acr', 'amr', 'auth_time']) assert.ok(doc.claims_supported.includes(claim), claim);
  });
});
