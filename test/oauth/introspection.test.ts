import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { createTestApp, events, type SignedUp, signUp, type TestApp } from '../helpers/app.ts';
import {
  ADMIN_TOKEN,
  authorizationParams,
  authorizeWithPin,
  basicAuth,
  pkce,
  REDIRECT,
  registerClient,
  tokenRequest,
} from '../helpers/oauth.ts';

type Secret = { id: string; secret: string };

describe('token introspection (RFC 7662)', () => {
  let t: TestApp;
  let user: SignedUp;
  let api: Secret;
  before(async () => {
    t = await createTestApp({
      env: { ADMIN_TOKEN, RATE_LIMITS: 'signin_phone=1000/900,signin_address=1000/900' },
    });
    user = await signUp(t);
    const conf = await registerClient(t);
    api = { id: conf.client_id, secret: conf.client_secret as string };
  });
  after(() => t.close());

  const introspect = (form: Record<string, string>, basic?: Secret) =>
    t.request('POST', '/oauth/introspect', {
      body: new URLSearchParams(form).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(basic ? { authorization: basicAuth(basic) } : {}),
      },
    });

  /** Tokens of a confidential client, through the hosted page and the token endpoint. */
  const tokensOf = async (client: Secret, who: { phone: string; pin: string } = user) => {
    const { verifier, challenge } = pkce();
    const back = await authorizeWithPin(t, authorizationParams(client.id, challenge), who);
    const res = await tokenRequest(
      t,
      {
        grant_type: 'authorization_code',
        code: back.searchParams.get('code') as string,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      },
      client,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as { access_token: string; refresh_token: string; id_token: string };
  };
  const refresh = (client: Secret, token: string) =>
    tokenRequest(t, { grant_type: 'refresh_token', refresh_token: token }, client);

  test('an access token of this client is active, with its claims; not cached', async () => {
    const tokens = await tokensOf(api);
    const res = await introspect({ token: tokens.access_token, token_type_hint: 'access_token' }, api);
    assert.equal(res.status, 200);
    assert.equal(res.headers['cache-control'], 'no-store');
    const jwt = decodeJwt(tokens.access_token);
    assert.deepEqual(res.body, {
      active: true,
      token_type: 'Bearer',
      client_id: api.id,
      sub: user.user.id,
      scope: 'openid phone',
      sid: jwt.sid,
      jti: jwt.jti,
      iss: 'http://callsign.test',
      aud: api.id,
      iat: jwt.iat,
      exp: jwt.exp,
      // when and how the session's sign-in was proved (issue 48): a PIN on the hosted page
      auth_time: jwt.auth_time,
      amr: ['pwd'],
      acr: 'urn:callsign:acr:1fa',
    });
  });

  test('a refresh token is active while it is its live session’s current one; looking is not using', async () => {
    const tokens = await tokensOf(api);
    const sid = decodeJwt(tokens.access_token).sid;
    // The hint is only a hint (RFC 7662 §2.1): a wrong one finds the token all the same.
    const first = await introspect({ token: tokens.refresh_token, token_type_hint: 'access_token' }, api);
    const issuedAt = Math.floor(t.clock.now().getTime() / 1000);
    assert.deepEqual(first.body, {
      active: true,
      client_id: api.id,
      sub: user.user.id,
      scope: 'openid phone',
      sid,
      iat: issuedAt,
      exp: issuedAt + 30 * 24 * 3600, // D15: 30 days
      auth_time: issuedAt,
      amr: ['pwd'],
      acr: 'urn:callsign:acr:1fa',
    });
    // Introspection rotated nothing: the token still refreshes.
    const next = await refresh(api, tokens.refresh_token);
    assert.equal(next.status, 200);
    // The rotated token is no longer active, even inside the 10-second grace window (D16)...
    assert.deepEqual((await introspect({ token: tokens.refresh_token }, api)).body, { active: false });
    t.clock.advance(11);
    // ...and asking about it after the window is not reuse: the session goes on.
    assert.deepEqual((await introspect({ token: tokens.refresh_token }, api)).body, { active: false });
    assert.equal((await introspect({ token: next.body.refresh_token }, api)).body.active, true);
    assert.equal((await refresh(api, next.body.refresh_token)).status, 200);
    assert.ok(!(await events(t, 'session.revoked')).some((e) => e.data.session_id === sid));
  });

  test('expired tokens are inactive (clock moved)', async () => {
    const tokens = await tokensOf(api);
    t.clock.advance(3600); // OAuth access tokens live 1 hour
    assert.deepEqual((await introspect({ token: tokens.access_token }, api)).body, { active: false });
    assert.equal((await introspect({ token: tokens.refresh_token }, api)).body.active, true);
    t.clock.advance(30 * 24 * 3600 - 3600); // the refresh token's 30 days (D15)
    assert.deepEqual((await introspect({ token: tokens.refresh_token }, api)).body, { active: false });
  });

  test('once the session is revoked, neither of its tokens is active', async () => {
    const tokens = await tokensOf(api);
    const revoked = await t.request('POST', '/oauth/revoke', {
      body: new URLSearchParams({ token: tokens.refresh_token }).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basicAuth(api),
      },
    });
    assert.equal(revoked.status, 200);
    assert.deepEqual((await introspect({ token: tokens.access_token }, api)).body, { active: false });
    assert.deepEqual((await introspect({ token: tokens.refresh_token }, api)).body, { active: false });
  });

  test("a deleted account's tokens are inactive", async () => {
    const gone = await signUp(t);
    const tokens = await tokensOf(api, gone);
    assert.equal((await introspect({ token: tokens.access_token }, api)).body.active, true);
    const deleted = await t.request('DELETE', '/users/me', {
      token: gone.access_token,
      body: { pin: gone.pin, confirmation: 'DELETE MY ACCOUNT' },
    });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.deepEqual((await introspect({ token: tokens.access_token }, api)).body, { active: false });
    assert.deepEqual((await introspect({ token: tokens.refresh_token }, api)).body, { active: false });
  });

  test("§2.2: another client's tokens, REST tokens, ID tokens and garbage are all just inactive", async () => {
    const other = await registerClient(t);
    const theirs = await tokensOf({ id: other.client_id, secret: other.client_secret as string });
    for (const token of [
      theirs.access_token,
      theirs.refresh_token,
      user.access_token, // REST surface (P9)
      user.refresh_token,
      'not-a-token',
      `${theirs.refresh_token.split('.').slice(0, 3).join('.')}.AAAAAAAAAAAAAAAAAAAAAA`, // a forged tag (P59)
    ]) {
      const res = await introspect({ token }, api);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { active: false }, token);
    }
    const idToken = (await tokensOf(api)).id_token;
    assert.deepEqual(
      (await introspect({ token: idToken }, api)).body,
      { active: false },
      'not an access token',
    );
  });

  test('§2.1: only an authenticated confidential client may ask (invalid_client, 401); token is required', async () => {
    const pub = await registerClient(t, { token_endpoint_auth_method: 'none' });
    const tokens = await tokensOf(api);
    const asPublic = await introspect({ token: tokens.access_token, client_id: pub.client_id });
    assert.equal(asPublic.status, 401);
    assert.equal(asPublic.body.error, 'invalid_client');
    const wrong = await introspect({ token: tokens.access_token }, { ...api, secret: `${api.secret}x` });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error, 'invalid_client');
    assert.match(String(wrong.headers['www-authenticate']), /^Basic/);
    const anonymous = await introspect({ token: tokens.access_token });
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.body.error, 'invalid_client');
    const missing = await introspect({}, api);
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error, 'invalid_request');
    const post = await introspect({
      token: tokens.access_token,
      client_id: api.id,
      client_secret: api.secret,
    });
    assert.equal(post.status, 200, 'either secret method, whatever the client registered');
    assert.equal(post.body.active, true);
    const both = await introspect(
      { token: tokens.access_token, client_id: api.id, client_secret: api.secret },
      api,
    );
    assert.equal(both.status, 400);
    assert.equal(both.body.error, 'invalid_request', 'one method per request');
  });

  test('discovery names the endpoint and its client authentication methods', async () => {
    const res = await t.request('GET', '/.well-known/openid-configuration');
    assert.equal(res.body.introspection_endpoint, 'http://callsign.test/oauth/introspect');
    assert.deepEqual(res.body.introspection_endpoint_auth_methods_supported, [
      'client_secret_basic',
      'client_secret_post',
      'private_key_jwt',
    ]);
  });
});

describe('introspection has a limit of its own per client', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN, RATE_LIMITS: 'oauth_introspect_client=2/60' } });
  });
  after(() => t.close());

  test('oauth_introspect_client: the third request in a minute is 429 with Retry-After', async () => {
    const conf = await registerClient(t);
    const basic = basicAuth({ id: conf.client_id, secret: conf.client_secret as string });
    const ask = () =>
      t.request('POST', '/oauth/introspect', {
        body: 'token=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
      });
    assert.equal((await ask()).status, 200);
    const second = await ask();
    assert.equal(second.headers['x-ratelimit-limit'], '2');
    assert.equal(second.headers['x-ratelimit-remaining'], '0');
    const third = await ask();
    assert.equal(third.status, 429);
    assert.equal(third.body.error, 'too_many_requests');
    assert.ok(Number(third.headers['retry-after']) > 0);
    // The token endpoint counts apart (D28's 300 per minute).
    const token = await t.request('POST', '/oauth/token', {
      body: 'grant_type=refresh_token&refresh_token=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
    });
    assert.equal(token.body.error, 'invalid_grant');
  });
});
