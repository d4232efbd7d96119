import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { clientsRepo } from '../../src/storage/repositories/clients.ts';
import { sessionsRepo } from '../../src/storage/repositories/sessions.ts';
import { usersRepo } from '../../src/storage/repositories/users.ts';
import {
  createTestApp,
  events,
  type SignedUp,
  signUp,
  type TestApp,
  unrevokedSessions,
  verifiedTempToken,
} from '../helpers/app.ts';
import { meanwhileUncommitted } from '../helpers/database.ts';
import {
  ADMIN_TOKEN,
  adminRequest,
  authorizationParams,
  authorizeUrl,
  authorizeWithPin,
  decideConsent,
  exchangeCode,
  pkce,
  postSignIn,
  REDIRECT,
  refreshGrant,
  registerClient,
  signInForSso,
  tokenRequest,
} from '../helpers/oauth.ts';

describe('RFC 9700 / RFC 6749 negatives, one each', () => {
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

  const base = authorizationParams;
  const codeFor = async (
    clientId: string,
    challenge: string,
    extra: Record<string, string> = {},
    who: { phone: string; pin: string } = user,
  ) => (await authorizeWithPin(t, base(clientId, challenge, extra), who)).searchParams.get('code') as string;
  const exchange = (clientId: string, code: string, verifier: string, extra: Record<string, string> = {}) =>
    exchangeCode(t, clientId, code, verifier, extra);
  const redirectOf = async (params: Record<string, string>) => {
    const res = await t.request('GET', authorizeUrl(params));
    assert.equal(res.status, 302);
    return new URL(String(res.headers.location));
  };

  test('an unregistered or slightly different redirect_uri gets an error page, never a redirect', async () => {
    const { challenge } = pkce();
    for (const redirect of [
      'https://evil.example/callback',
      `${REDIRECT}/`,
      REDIRECT.toUpperCase(),
      `${REDIRECT}?x=1`,
    ]) {
      const res = await t.request(
        'GET',
        authorizeUrl({ ...base(pub.client_id, challenge), redirect_uri: redirect }),
      );
      assert.equal(res.status, 400, redirect);
      assert.equal(res.headers.location, undefined);
      assert.match(String(res.headers['content-type']), /text\/html/);
    }
    const unknownClient = await t.request('GET', authorizeUrl({ ...base('nope', challenge) }));
    assert.equal(unknownClient.status, 400);
    assert.equal(unknownClient.headers.location, undefined);
  });

  test('a form posted with a type the page does not read is an error page of the client’s error, not a 500', async () => {
    for (const path of [
      '/authorize/signin',
      '/authorize/consent',
      '/authorize/signup/send',
      '/authorize/logout',
    ]) {
      const res = await t.request('POST', path, {
        body: 'phone=1',
        headers: { 'content-type': 'text/plain' },
      });
      assert.equal(res.status, 415, path);
      assert.match(String(res.body), /The request was malformed/);
      assert.match(String(res.headers['content-type']), /text\/html/);
    }
    assert.ok(!t.logs.some((l) => l.includes('authorization page failed')), 'nothing of ours failed');
  });

  test('missing PKCE is invalid_request, with state and iss on the redirect', async () => {
    const { code_challenge: _, code_challenge_method: __, ...noPkce } = base(pub.client_id, 'x');
    const back = await redirectOf(noPkce);
    assert.equal(back.searchParams.get('error'), 'invalid_request');
    assert.equal(back.searchParams.get('state'), 'st-1');
    assert.equal(back.searchParams.get('iss'), 'http://callsign.test');
    assert.ok(back.searchParams.get('error_description'));
  });

  test('`plain` PKCE is refused', async () => {
    const back = await redirectOf({ ...base(pub.client_id, 'a'.repeat(43)), code_challenge_method: 'plain' });
    assert.equal(back.searchParams.get('error'), 'invalid_request');
  });

  test("a scope outside the client's allowed scopes is invalid_scope", async () => {
    const back = await redirectOf({ ...base(pub.client_id, pkce().challenge), scope: 'openid kyc' });
    assert.equal(back.searchParams.get('error'), 'invalid_scope');
    assert.equal(back.searchParams.get('iss'), 'http://callsign.test');
  });

  test('response_type other than code is unsupported_response_type', async () => {
    const back = await redirectOf({ ...base(pub.client_id, pkce().challenge), response_type: 'token' });
    assert.equal(back.searchParams.get('error'), 'unsupported_response_type');
  });

  test('success carries code, state and iss; the exchange answers the spec fields with no-store', async () => {
    const { verifier, challenge } = pkce();
    const back = await authorizeWithPin(t, base(pub.client_id, challenge), user);
    assert.equal(back.searchParams.get('state'), 'st-1');
    assert.equal(back.searchParams.get('iss'), 'http://callsign.test');
    const res = await exchange(pub.client_id, back.searchParams.get('code') as string, verifier);
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), [
      'access_token',
      'expires_in',
      'id_token',
      'refresh_token',
      'scope',
      'token_type',
    ]);
    assert.equal(res.body.token_type, 'Bearer');
    assert.equal(res.body.expires_in, 3600);
    assert.equal(res.body.scope, 'openid phone');
    assert.equal(res.headers['cache-control'], 'no-store');
  });

  test('a wrong verifier is invalid_grant, and uses the code up (single use)', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(pub.client_id, challenge);
    const res = await exchange(pub.client_id, code, pkce().verifier);
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'invalid_grant');
    const again = await exchange(pub.client_id, code, verifier);
    assert.equal(again.body.error, 'invalid_grant', 'the right verifier comes too late');
    assert.match(again.body.error_description, /already used/);
  });

  test('a token request without a verifier is invalid_request', async () => {
    const { challenge } = pkce();
    const code = await codeFor(pub.client_id, challenge);
    const res = await tokenRequest(t, {
      grant_type: 'authorization_code',
      client_id: pub.client_id,
      code,
      redirect_uri: REDIRECT,
    });
    assert.equal(res.body.error, 'invalid_request');
  });

  test('code replay: the second use fails and the first access token stops working', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(pub.client_id, challenge);
    const first = await exchange(pub.client_id, code, verifier);
    assert.equal(first.status, 200);
    const info = () => t.request('GET', '/oauth/userinfo', { token: first.body.access_token });
    assert.equal((await info()).status, 200);
    const replay = await exchange(pub.client_id, code, verifier);
    assert.equal(replay.body.error, 'invalid_grant');
    const after = await info();
    assert.equal(after.status, 401);
    assert.match(String(after.headers['www-authenticate']), /^Bearer error="invalid_token"/);
    const refresh = await refreshGrant(t, pub.client_id, first.body.refresh_token);
    assert.equal(refresh.body.error, 'invalid_grant');
    const sid = decodeJwt(first.body.access_token).sid;
    const revoked = (await events(t, 'session.revoked')).filter((e) => e.data.session_id === sid);
    assert.deepEqual(
      revoked.map((e) => e.data.reason),
      ['admin'],
      'P27: ended by the service',
    );
  });

  test("a code issued before the operator's lock gives no tokens after it (nor opens a session)", async () => {
    const u = await signUp(t);
    const { verifier, challenge } = pkce();
    const code = await codeFor(pub.client_id, challenge, {}, u);
    assert.equal((await adminRequest(t, 'POST', `/users/${u.user.id}/lock`)).status, 200);
    const res = await exchange(pub.client_id, code, verifier);
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'invalid_grant');
    assert.match(res.body.error_description, /locked/);
    assert.equal(await unrevokedSessions(t, u.user.id), 0, 'no session was opened');
    const created = (await events(t, 'session.created')).filter((e) => e.data.user_id === u.user.id);
    assert.equal(created.length, 1, "D32: the sign-up's session.created only, none for a session not opened");
    assert.equal((await adminRequest(t, 'POST', `/users/${u.user.id}/unlock`)).status, 200);
    const again = pkce();
    const unlocked = await exchange(
      pub.client_id,
      await codeFor(pub.client_id, again.challenge, {}, u),
      again.verifier,
    );
    assert.equal(unlocked.status, 200, 'after the unlock, a new authorization works');
  });

  test('race: a code exchanged while the lock is being written opens no session that outlives the lock', async () => {
    const u = await signUp(t);
    const { verifier, challenge } = pkce();
    const code = await codeFor(pub.client_id, challenge, {}, u);
    // The operator's lock (the account marked, its sessions ended) not yet committed while the exchange runs:
    // on PostgreSQL the exchange must wait for it (it reads the account FOR SHARE), or it would open a
    // session from the account as it was, after the lock had ended the others.
    const res = await meanwhileUncommitted(
      t.c.db,
      async (tx) => {
        await usersRepo.setAdminLock(tx, u.user.id, t.clock.now());
        await t.c.sessions.revokeAllOfUser(tx, u.user.id, 'admin');
      },
      () => exchange(pub.client_id, code, verifier),
      '%FROM users%FOR SHARE%',
    );
    assert.equal(res.body.error, 'invalid_grant');
    assert.equal(await unrevokedSessions(t, u.user.id), 0);
  });

  test('a code exchanged while its client is being deleted, or after, by a process that still remembers the client, opens no session', async () => {
    const doomed = await registerClient(t, { token_endpoint_auth_method: 'none' });
    const { verifier, challenge } = pkce();
    const code = await codeFor(doomed.client_id, challenge);
    const res = await meanwhileUncommitted(
      t.c.db,
      async (tx) => {
        await clientsRepo.markDeleted(tx, doomed.client_id, t.clock.now());
        for (const id of await sessionsRepo.activeIdsOfClient(tx, doomed.client_id))
          await t.c.sessions.revoke(tx, id, 'admin');
      },
      () => exchange(doomed.client_id, code, verifier), // this process still has the client in memory
      '%FROM clients%FOR SHARE%',
    );
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'invalid_grant');
    assert.equal(await unrevokedSessions(t, doomed.client_id, 'client_id'), 0);
  });

  test('race: one code exchanged 5 times at once gives tokens once', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(pub.client_id, challenge);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => exchange(pub.client_id, code, verifier)),
    );
    assert.equal(answers.filter((a) => a.status === 200).length, 1);
    assert.ok(answers.filter((a) => a.status !== 200).every((a) => a.body.error === 'invalid_grant'));
  });

  test('a code used by another client is invalid_grant', async () => {
    const other = await registerClient(t, { token_endpoint_auth_method: 'none' });
    const { verifier, challenge } = pkce();
    const code = await codeFor(pub.client_id, challenge);
    assert.equal((await exchange(other.client_id, code, verifier)).body.error, 'invalid_grant');
  });

  test('an expired code (60 s, clock moved) is invalid_grant', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(pub.client_id, challenge);
    t.clock.advance(61);
    assert.equal((await exchange(pub.client_id, code, verifier)).body.error, 'invalid_grant');
  });

  test('refresh by another client is invalid_grant; the owner can still refresh', async () => {
    const other = await registerClient(t, { token_endpoint_auth_method: 'none' });
    const { verifier, challenge } = pkce();
    const tokens = (await exchange(pub.client_id, await codeFor(pub.client_id, challenge), verifier)).body;
    const stolen = await refreshGrant(t, other.client_id, tokens.refresh_token);
    assert.equal(stolen.body.error, 'invalid_grant');
    const own = await refreshGrant(t, pub.client_id, tokens.refresh_token);
    assert.equal(own.status, 200);
    assert.equal(own.body.id_token, undefined, 'the spec puts id_token in the code response only');
  });

  test('a reused refresh token after the grace window is invalid_grant and ends the session', async () => {
    const { verifier, challenge } = pkce();
    const tokens = (await exchange(pub.client_id, await codeFor(pub.client_id, challenge), verifier)).body;
    const next = await refreshGrant(t, pub.client_id, tokens.refresh_token);
    t.clock.advance(11);
    const reuse = await refreshGrant(t, pub.client_id, tokens.refresh_token);
    assert.equal(reuse.body.error, 'invalid_grant');
    assert.equal((await t.request('GET', '/oauth/userinfo', { token: next.body.access_token })).status, 401);
    assert.ok((await events(t, 'session.revoked')).some((e) => e.data.reason === 'refresh_token_reuse'));
  });

  test('a grant type the client is not allowed is unauthorized_client', async () => {
    const noRefresh = await registerClient(t, {
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code'],
    });
    const { verifier, challenge } = pkce();
    const tokens = (
      await exchange(noRefresh.client_id, await codeFor(noRefresh.client_id, challenge), verifier)
    ).body;
    assert.equal(tokens.refresh_token, undefined);
    const res = await refreshGrant(t, noRefresh.client_id, 'x');
    assert.equal(res.body.error, 'unauthorized_client');
    assert.equal(
      (await tokenRequest(t, { grant_type: 'password', client_id: pub.client_id })).body.error,
      'unsupported_grant_type',
    );
  });

  test('confidential clients: either secret method (RFC 6749 §2.3.1), the right secret only (invalid_client, 401)', async () => {
    const conf = await registerClient(t);
    const secret = conf.client_secret as string;
    const { verifier, challenge } = pkce();
    const code = await codeFor(conf.client_id, challenge);
    const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier };
    const wrong = await tokenRequest(t, form, { id: conf.client_id, secret: `${secret}x` });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error, 'invalid_client');
    const wrongPost = await tokenRequest(t, { ...form, client_id: conf.client_id, client_secret: 'x' });
    assert.equal(wrongPost.body.error, 'invalid_client');
    const none = await tokenRequest(t, { ...form, client_id: conf.client_id });
    assert.equal(none.body.error, 'invalid_client');
    const both = await tokenRequest(t, { ...form, client_secret: secret }, { id: conf.client_id, secret });
    assert.equal(both.body.error, 'invalid_request', 'one method per request');
    const post = await tokenRequest(t, { ...form, client_id: conf.client_id, client_secret: secret });
    assert.equal(post.status, 200, 'client_secret_post, though registered for client_secret_basic');
    const code2 = await codeFor(conf.client_id, challenge);
    const basic = await tokenRequest(t, { ...form, code: code2 }, { id: conf.client_id, secret });
    assert.equal(basic.status, 200);
  });

  test('revocation: unknown tokens answer 200; another client cannot revoke; the owner ends the session', async () => {
    const other = await registerClient(t, { token_endpoint_auth_method: 'none' });
    const { verifier, challenge } = pkce();
    const tokens = (await exchange(pub.client_id, await codeFor(pub.client_id, challenge), verifier)).body;
    const revoke = (clientId: string, token: string) =>
      t.request('POST', '/oauth/revoke', {
        body: new URLSearchParams({ client_id: clientId, token }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    assert.equal((await revoke(pub.client_id, 'unknown-token')).status, 200);
    assert.equal((await revoke(other.client_id, tokens.refresh_token)).status, 400);
    assert.equal(
      (await t.request('GET', '/oauth/userinfo', { token: tokens.access_token })).status,
      200,
      'untouched',
    );
    // P59: an earlier generation of this session, but not one we issued (its tag is wrong), ends nothing.
    const next = await refreshGrant(t, pub.client_id, tokens.refresh_token);
    const [sid, generation, , tag] = tokens.refresh_token.split('.');
    const forged = `${sid}.${generation}.${Buffer.alloc(32, 7).toString('base64url')}.${tag}`;
    assert.equal((await revoke(pub.client_id, forged)).status, 200);
    const alive = await t.request('GET', '/oauth/userinfo', { token: next.body.access_token });
    assert.equal(alive.status, 200, 'a forged token revokes nothing');
    // A rotated token of ours still names its session (RFC 7009 §2.1: the whole grant may go).
    assert.equal((await revoke(pub.client_id, tokens.refresh_token)).status, 200);
    assert.equal((await t.request('GET', '/oauth/userinfo', { token: next.body.access_token })).status, 401);
  });

  test('userinfo answers the claims of the granted scopes only, with the spec types', async () => {
    const { verifier, challenge } = pkce();
    const tokens = (
      await exchange(
        pub.client_id,
        await codeFor(pub.client_id, challenge, { scope: 'openid profile' }),
        verifier,
      )
    ).body;
    const info = await t.request('GET', '/oauth/userinfo', { token: tokens.access_token });
    assert.equal(info.body.sub, user.user.id);
    assert.equal(typeof info.body.updated_at, 'number');
    assert.equal(info.body.phone, undefined, 'no phone scope, no phone claim');
    const post = await t.request('POST', '/oauth/userinfo', { token: tokens.access_token });
    assert.deepEqual(post.body, info.body);
    const missing = await t.request('GET', '/oauth/userinfo');
    assert.equal(missing.status, 401);
    assert.equal(missing.body.error, 'invalid_token');
    // Same keys, issuer, audience and typ (D14): what tells an ID token apart is that it has no scope; even one
    // that names its live session (as OIDC Back-Channel Logout's `sid` would) is no access token.
    const { sid } = decodeJwt(tokens.access_token);
    const withSid = t.c.tokens.issueIdToken({
      sub: user.user.id,
      aud: pub.client_id,
      ttlSeconds: 3600,
      claims: { sid, auth_time: decodeJwt(tokens.id_token).auth_time },
      alg: 'RS256',
    });
    for (const idToken of [tokens.id_token, withSid]) {
      const refused = await t.request('GET', '/oauth/userinfo', { token: idToken });
      assert.equal(refused.status, 401, 'an ID token is not an access token');
      assert.equal(refused.body.error, 'invalid_token');
    }
  });

  test('an OAuth session is listed in GET /sessions and revoking it there kills its tokens', async () => {
    const { verifier, challenge } = pkce();
    const tokens = (await exchange(pub.client_id, await codeFor(pub.client_id, challenge), verifier)).body;
    const rest = await t.request('POST', '/auth/signin', { body: { phone: user.phone, pin: user.pin } });
    const list = await t.request('GET', '/sessions', { token: rest.body.data.access_token });
    const sid = decodeJwt(tokens.access_token).sid;
    const oauthSession = list.body.data.sessions.find((s: { id: string }) => s.id === sid);
    assert.equal(oauthSession.device_name, 'RP', "the client's name");
    assert.equal(oauthSession.platform, 'web');
    assert.equal(oauthSession.ip_address, null, "P30: the exchange came from the client's server");
    const del = await t.request('DELETE', `/sessions/${oauthSession.id}`, {
      token: rest.body.data.access_token,
    });
    assert.equal(del.status, 200);
    assert.equal((await t.request('GET', '/oauth/userinfo', { token: tokens.access_token })).status, 401);
    const refresh = await refreshGrant(t, pub.client_id, tokens.refresh_token);
    assert.equal(refresh.body.error, 'invalid_grant');
  });

  test('the OpenAPI document covers the OAuth and admin surfaces', async () => {
    const doc = (await t.request('GET', '/openapi.json')).body;
    for (const path of [
      '/authorize',
      '/oauth/token',
      '/oauth/userinfo',
      '/oauth/revoke',
      '/.well-known/openid-configuration',
      '/.well-known/oauth-authorization-server',
      '/.well-known/jwks.json',
      '/admin/v1/clients',
      '/admin/v1/api-keys',
      '/admin/v1/keys/rotate',
    ]) {
      assert.ok(doc.paths[path], path);
    }
    // The parameters and form fields are named, so a client author needs no other reference.
    const form = (path: string) =>
      Object.keys(
        doc.paths[path].post.requestBody.content['application/x-www-form-urlencoded'].schema.properties,
      );
    for (const field of ['grant_type', 'code', 'redirect_uri', 'code_verifier', 'refresh_token', 'client_id'])
      assert.ok(form('/oauth/token').includes(field), `/oauth/token ${field}`);
    assert.ok(form('/oauth/revoke').includes('token'));
    const query = (path: string) => doc.paths[path].get.parameters.map((p: { name: string }) => p.name);
    for (const name of ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge'])
      assert.ok(query('/authorize').includes(name), `/authorize ${name}`);
    assert.deepEqual(query('/api/v1/users').sort(), ['external_id', 'limit', 'phone', 'starting_after']);
    const patch = doc.paths['/api/v1/users/me'].patch.requestBody.content['application/json'].schema;
    assert.deepEqual(Object.keys(patch.properties).sort(), ['email', 'metadata', 'name']);
  });

  /** Signs in on the hosted page; answers the single sign-on cookie as set and as a browser sends it back. */
  test('a PIN reset ends the single sign-on of the authorization page', async () => {
    const u = await signUp(t);
    const params = base(pub.client_id, pkce().challenge);
    const { cookie } = await signInForSso(t, params, u);
    assert.equal(
      (await t.request('GET', authorizeUrl(params), { headers: { cookie } })).status,
      302,
      'SSO skips the PIN',
    );
    const temp_token = await verifiedTempToken(t, u.phone, 'pin_reset');
    assert.equal(
      (await t.request('POST', '/auth/pin/reset', { body: { temp_token, pin: '730194' } })).status,
      200,
    );
    assert.equal(
      (await t.request('GET', authorizeUrl(params), { headers: { cookie } })).status,
      200,
      'the sign-in page again',
    );
  });

  test('the single sign-on cookie is HttpOnly, SameSite=Lax, on /authorize, for 7 days; auth_time stays the sign-in', async () => {
    const u = await signUp(t);
    const signedInAt = Math.floor(t.clock.now().getTime() / 1000);
    const { setCookie, cookie } = await signInForSso(t, base(pub.client_id, pkce().challenge), u);
    assert.match(setCookie, /; HttpOnly/i);
    assert.match(setCookie, /; SameSite=Lax/i);
    assert.match(setCookie, /; Path=\/authorize(;|$)/);
    assert.match(setCookie, /; Max-Age=604800(;|$)/);
    assert.doesNotMatch(setCookie, /; Secure/i, 'Secure only when AUTH_URL is https');

    // An hour later the cookie skips the PIN; the ID token says when the user last proved who they are.
    t.clock.advance(3600);
    const { verifier, challenge } = pkce();
    const skipped = await t.request('GET', authorizeUrl(base(pub.client_id, challenge)), {
      headers: { cookie },
    });
    assert.equal(skipped.status, 302);
    const code = new URL(String(skipped.headers.location)).searchParams.get('code') as string;
    const idToken = decodeJwt((await exchange(pub.client_id, code, verifier)).body.id_token);
    assert.equal(idToken.auth_time, signedInAt, 'OIDC Core §2: the time of the sign-in, not of this request');
    assert.equal(idToken.iat, signedInAt + 3600);

    t.clock.advance(7 * 24 * 3600 - 3600 + 1);
    const expired = await t.request('GET', authorizeUrl(base(pub.client_id, pkce().challenge)), {
      headers: { cookie },
    });
    assert.equal(expired.status, 200, 'after 7 days the sign-in page again');
  });

  test('consent is remembered per client and scopes: a narrower request skips it, a broader one or another client asks', async () => {
    const thirdParty = {
      token_endpoint_auth_method: 'none',
      first_party: false,
      scope: 'openid profile phone',
    };
    const shop = await registerClient(t, thirdParty);
    const other = await registerClient(t, thirdParty);
    const u = await signUp(t);
    const { cookie } = await signInForSso(t, base(shop.client_id, pkce().challenge), u);
    const ask = async (clientId: string, scope: string) => {
      const res = await t.request('GET', authorizeUrl(base(clientId, pkce().challenge, { scope })), {
        headers: { cookie },
      });
      if (res.status === 302) return { asked: false, back: new URL(String(res.headers.location)) };
      assert.match(String(res.body), /Allow access\?/);
      return { asked: true, page: String(res.body) };
    };
    const decide = (page: string, decision: 'allow' | 'deny') => decideConsent(t, page, cookie, decision);

    const first = await ask(shop.client_id, 'openid profile');
    assert.ok(first.asked);
    assert.ok((await decide(first.page as string, 'allow')).searchParams.get('code'));
    assert.ok((await ask(shop.client_id, 'openid profile')).back?.searchParams.get('code'), 'remembered');
    assert.equal((await ask(shop.client_id, 'openid')).asked, false, 'a narrower request');
    const broader = await ask(shop.client_id, 'openid profile phone');
    assert.ok(broader.asked, 'phone was never allowed');
    await decide(broader.page as string, 'allow');
    assert.equal((await ask(shop.client_id, 'openid phone')).asked, false);

    const elsewhere = await ask(other.client_id, 'openid');
    assert.ok(elsewhere.asked, 'consent to one client is not consent to another');
    const denied = await decide(elsewhere.page as string, 'deny');
    assert.equal(denied.searchParams.get('error'), 'access_denied');
    assert.ok((await ask(other.client_id, 'openid')).asked, 'a denial is not remembered as consent');
  });

  test('prompt=none, login, consent, max_age and login_hint (OIDC Core §3.1.2.1)', async () => {
    const u = await signUp(t);
    const shop = await registerClient(t, { token_endpoint_auth_method: 'none', first_party: false });
    const { cookie } = await signInForSso(t, base(pub.client_id, pkce().challenge), u);
    const ask = async (clientId: string, extra: Record<string, string>, withCookie = cookie) => {
      const res = await t.request('GET', authorizeUrl(base(clientId, pkce().challenge, extra)), {
        headers: { cookie: withCookie },
      });
      if (res.status !== 302)
        return /Allow access\?/.test(String(res.body)) ? 'consent page' : 'sign-in page';
      const back = new URL(String(res.headers.location));
      assert.equal(back.searchParams.get('state'), 'st-1');
      assert.equal(back.searchParams.get('iss'), 'http://callsign.test');
      return back.searchParams.get('error') ?? 'code';
    };

    assert.equal(await ask(pub.client_id, { prompt: 'none' }), 'code', 'signed in: no page');
    assert.equal(await ask(pub.client_id, { prompt: 'none' }, ''), 'login_required');
    assert.equal(await ask(shop.client_id, { prompt: 'none' }), 'consent_required');
    assert.equal(await ask(pub.client_id, { prompt: 'login' }), 'sign-in page');
    assert.equal(await ask(pub.client_id, { prompt: 'select_account' }), 'sign-in page');
    assert.equal(await ask(pub.client_id, { prompt: 'consent' }), 'consent page', 'asked, even first-party');

    t.clock.advance(120);
    assert.equal(await ask(pub.client_id, { max_age: '600' }), 'code');
    assert.equal(await ask(pub.client_id, { max_age: '60' }), 'sign-in page', 'signed in 2 minutes ago');
    assert.equal(await ask(pub.client_id, { max_age: '60', prompt: 'none' }), 'login_required');
    const malformed: Array<Record<string, string>> = [
      { prompt: 'none login' },
      { prompt: 'always' },
      { max_age: '-1' },
      { max_age: '1.5' },
    ];
    for (const extra of malformed)
      assert.equal(await ask(pub.client_id, extra), 'invalid_request', JSON.stringify(extra));

    const discovery = (await t.request('GET', '/.well-known/openid-configuration')).body;
    assert.deepEqual(discovery.prompt_values_supported, [
      'none',
      'login',
      'consent',
      'select_account',
      'create',
    ]);

    // P71: login_hint fills the sign-in form's phone number, escaped; a value too long for a phone is left out.
    const hinted = async (hint: string) =>
      String(
        (await t.request('GET', authorizeUrl(base(pub.client_id, pkce().challenge, { login_hint: hint }))))
          .body,
      );
    assert.match(await hinted('+1 415 555 0100'), /name="phone" type="tel" [^>]*value="\+1 415 555 0100"/);
    assert.match(await hinted('"><script>x</script>'), /value="&quot;&gt;&lt;script&gt;x&lt;\/script&gt;"/);
    assert.match(await hinted('9'.repeat(33)), /name="phone" type="tel" [^>]*value=""/);
  });

  test('prompt=create opens the page on sign-up, signed in or not, and links back to sign-in', async () => {
    const u = await signUp(t);
    const { cookie } = await signInForSso(t, base(pub.client_id, pkce().challenge), u);
    const open = (extra: Record<string, string>, withCookie = cookie) =>
      t.request('GET', authorizeUrl(base(pub.client_id, pkce().challenge, extra)), {
        headers: { cookie: withCookie },
      });
    for (const withCookie of [cookie, '']) {
      const res = await open({ prompt: 'create' }, withCookie);
      assert.equal(res.status, 200, 'the single sign-on does not answer for a new account');
      assert.match(String(res.body), /<h1>Create account<\/h1>/);
      assert.match(String(res.body), /action="\/authorize\/signup\/send"/);
    }
    assert.equal((await open({ prompt: 'create consent' })).status, 200);
    const none = await open({ prompt: 'create none' });
    assert.equal(none.status, 302);
    assert.equal(new URL(String(none.headers.location)).searchParams.get('error'), 'invalid_request');

    // login_hint fills the sign-up form's number too (P71); the page links to the sign-in form of the same request.
    const hinted = String((await open({ prompt: 'create', login_hint: '+1 415 555 0100' }, '')).body);
    assert.match(hinted, /name="phone" type="tel" [^>]*value="\+1 415 555 0100"/);
    const link = /href="(\/authorize\/signin\?state=[^"]+)"/.exec(hinted)?.[1] as string;
    assert.ok(link, 'Sign in is linked');
    const csrf = /callsign_csrf=([^;]+)/.exec(
      String((await open({ prompt: 'create' }, '')).headers['set-cookie']),
    )?.[1];
    const signIn = await t.request('GET', link, {
      headers: { cookie: `callsign_csrf=${csrf}` },
    });
    assert.equal(signIn.status, 200);
    assert.match(String(signIn.body), /action="\/authorize\/signin"/);
    assert.match(String(signIn.body), /name="phone" type="tel" [^>]*value="\+1 415 555 0100"/);
    const state = /name="state" value="([^"]+)"/.exec(String(signIn.body))?.[1] as string;
    const back = await postSignIn(t, { state, csrf: csrf as string }, u);
    assert.equal(back.status, 302);
    assert.ok(new URL(String(back.headers.location)).searchParams.get('code'), 'signed in from there');
    const stale = await t.request('GET', '/authorize/signin?state=forged', {
      headers: { cookie: `callsign_csrf=${csrf}` },
    });
    assert.equal(stale.status, 400);
  });

  test('id_token_hint: a single sign-on of another user does not answer; a hint not given to the client is refused', async () => {
    const [a, b] = [await signUp(t), await signUp(t)];
    const shop = await registerClient(t, { token_endpoint_auth_method: 'none' });
    const idTokenOf = async (clientId: string, who: { phone: string; pin: string }) => {
      const { verifier, challenge } = pkce();
      const code = await codeFor(clientId, challenge, { scope: 'openid phone' }, who);
      return (await exchange(clientId, code, verifier)).body.id_token as string;
    };
    const aHint = await idTokenOf(pub.client_id, a);
    const ask = async (extra: Record<string, string>, cookie: string) => {
      const res = await t.request('GET', authorizeUrl(base(pub.client_id, pkce().challenge, extra)), {
        headers: { cookie },
      });
      if (res.status !== 302)
        return /action="\/authorize\/signin"/.test(String(res.body)) ? 'sign-in page' : res.status;
      return new URL(String(res.headers.location)).searchParams.get('error') ?? 'code';
    };
    const asA = (await signInForSso(t, base(pub.client_id, pkce().challenge), a)).cookie;
    const asB = (await signInForSso(t, base(pub.client_id, pkce().challenge), b)).cookie;
    assert.equal(await ask({ prompt: 'none', id_token_hint: aHint }, asA), 'code', 'the same user');
    assert.equal(await ask({ prompt: 'none', id_token_hint: aHint }, asB), 'login_required');
    assert.equal(await ask({ id_token_hint: aHint }, asB), 'sign-in page');
    assert.equal(await ask({ prompt: 'none' }, asB), 'code', 'without a hint, whoever is signed in');
    t.clock.advance(2 * 3600);
    assert.equal(
      await ask({ prompt: 'none', id_token_hint: aHint }, asA),
      'code',
      'an expired ID token still names its user',
    );
    for (const hint of [await idTokenOf(shop.client_id, a), 'not-a-jwt', `${aHint.slice(0, -4)}AAAA`])
      assert.equal(
        await ask({ prompt: 'none', id_token_hint: hint }, asA),
        'invalid_request',
        hint.slice(-12),
      );
    const twice = `${authorizeUrl(base(pub.client_id, pkce().challenge, { id_token_hint: aHint }))}&id_token_hint=${aHint}`;
    const repeated = await t.request('GET', twice, { headers: { cookie: asA } });
    assert.equal(new URL(String(repeated.headers.location)).searchParams.get('error'), 'invalid_request');
  });

  test('the email scope gives email and email_verified (false) once the account has an address; the ID token neither', async () => {
    const rp = await registerClient(t, {
      token_endpoint_auth_method: 'none',
      scope: 'openid profile profile:write phone email',
    });
    const u = await signUp(t);
    const tokensFor = async (scope: string) => {
      const { verifier, challenge } = pkce();
      return (await exchange(rp.client_id, await codeFor(rp.client_id, challenge, { scope }, u), verifier))
        .body;
    };
    const emailOnly = await tokensFor('openid email');
    const userinfo = async () =>
      (await t.request('GET', '/oauth/userinfo', { token: emailOnly.access_token })).body;
    assert.deepEqual(await userinfo(), { sub: u.user.id }, 'spec: e-mail address "if available"');

    const editor = await tokensFor('openid profile:write email');
    const patched = await t.request('PATCH', '/api/v1/users/me', {
      token: editor.access_token,
      body: { email: 'ada@example.com' },
    });
    assert.equal(patched.status, 200);
    assert.deepEqual(await userinfo(), { sub: u.user.id, email: 'ada@example.com', email_verified: false });

    const idToken = decodeJwt((await tokensFor('openid email')).id_token);
    assert.equal(idToken.email, undefined);
    assert.equal(idToken.email_verified, undefined);
  });

  test('the REST surface refuses OAuth tokens, and the OAuth surface REST refresh tokens; neither ends the session', async () => {
    const { verifier, challenge } = pkce();
    const oauth = (await exchange(pub.client_id, await codeFor(pub.client_id, challenge), verifier)).body;
    const me = await t.request('GET', '/users/me', { token: oauth.access_token });
    assert.equal(me.status, 401);
    assert.equal(me.body.error.code, 'INVALID_TOKEN');
    assert.equal(me.body.error.message, 'access token was issued to another client');
    assert.deepEqual(
      me.body.error.details,
      { reason: 'audience', expected_audience: 'callsign' },
      'the cause named',
    );
    const restRefresh = await t.request('POST', '/auth/refresh', {
      body: { refresh_token: oauth.refresh_token },
    });
    assert.equal(restRefresh.status, 401);
    assert.equal(restRefresh.body.error.code, 'INVALID_REFRESH_TOKEN');
    const owner = await refreshGrant(t, pub.client_id, oauth.refresh_token);
    assert.equal(owner.status, 200, 'the client can still refresh');

    const rest = await t.request('POST', '/auth/signin', { body: { phone: user.phone, pin: user.pin } });
    const asClient = await refreshGrant(t, pub.client_id, rest.body.data.refresh_token);
    assert.equal(asClient.status, 400);
    assert.equal(asClient.body.error, 'invalid_grant');
    const again = await t.request('POST', '/auth/refresh', {
      body: { refresh_token: rest.body.data.refresh_token },
    });
    assert.equal(again.status, 200, 'the REST session goes on');
  });

  test('browser apps on a registered origin may read the token, revoke, userinfo and /api/v1/users/me answers', async () => {
    const app = 'https://rp.example'; // the origin of REDIRECT, registered by every client here
    const from = (origin: string, extra: Record<string, string> = {}) => ({ headers: { origin, ...extra } });
    const token = await t.request('POST', '/oauth/token', {
      body: 'grant_type=refresh_token&client_id=nobody&refresh_token=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app },
    });
    assert.equal(token.status, 401, 'the error itself is readable');
    assert.equal(token.headers['access-control-allow-origin'], app);
    assert.match(String(token.headers.vary), /Origin/);
    assert.match(String(token.headers['access-control-expose-headers']), /WWW-Authenticate/);

    for (const url of [
      '/oauth/token',
      '/oauth/revoke',
      '/oauth/userinfo',
      '/api/v1/users/me',
      '/api/v1/users/me/avatar',
    ]) {
      const preflight = await t.request(
        'OPTIONS',
        url,
        from(app, {
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization',
        }),
      );
      assert.equal(preflight.status, 204, url);
      assert.equal(preflight.headers['access-control-allow-origin'], app, url);
      assert.match(String(preflight.headers['access-control-allow-headers']), /Authorization/, url);
      assert.match(String(preflight.headers['access-control-allow-methods']), /POST/, url);
      const elsewhere = await t.request('OPTIONS', url, from('https://evil.example'));
      assert.equal(elsewhere.headers['access-control-allow-origin'], undefined, `${url} from elsewhere`);
    }
    const { verifier, challenge } = pkce();
    const tokens = (await exchange(pub.client_id, await codeFor(pub.client_id, challenge), verifier)).body;
    const info = await t.request('GET', '/oauth/userinfo', { token: tokens.access_token, ...from(app) });
    assert.equal(info.headers['access-control-allow-origin'], app);
    assert.equal(
      (
        await t.request('GET', '/oauth/userinfo', {
          token: tokens.access_token,
          ...from('https://evil.example'),
        })
      ).headers['access-control-allow-origin'],
      undefined,
    );

    // Public documents: any page. Cookie pages, the server-to-server paths and the REST surface: none.
    for (const url of [
      '/.well-known/jwks.json',
      '/.well-known/openid-configuration',
      '/.well-known/oauth-authorization-server',
    ])
      assert.equal(
        (await t.request('GET', url, from('https://any.example'))).headers['access-control-allow-origin'],
        '*',
      );
    for (const [method, url] of [
      ['GET', authorizeUrl(base(pub.client_id, challenge))],
      ['OPTIONS', '/api/v1/users'],
      ['OPTIONS', '/auth/refresh'],
      ['POST', '/auth/refresh'],
    ])
      assert.equal(
        (await t.request(method, url, from(app))).headers['access-control-allow-origin'],
        undefined,
        url,
      );

    // A client registered or removed changes the origins at once in this process (P55 for the others).
    const newcomer = 'https://newcomer.example';
    const allowed = async () =>
      (await t.request('OPTIONS', '/oauth/token', from(newcomer))).headers['access-control-allow-origin'];
    assert.equal(await allowed(), undefined);
    const added = await registerClient(t, {
      redirect_uris: [`${newcomer}/cb`],
      token_endpoint_auth_method: 'none',
    });
    assert.equal(await allowed(), newcomer);
    await adminRequest(t, 'DELETE', `/clients/${added.client_id}`);
    assert.equal(await allowed(), undefined);
  });

  test('discovery describes what is served', async () => {
    const res = await t.request('GET', '/.well-known/openid-configuration');
    assert.equal(res.body.issuer, 'http://callsign.test');
    assert.equal(res.body.authorization_endpoint, 'http://callsign.test/authorize');
    assert.equal(res.body.token_endpoint, 'http://callsign.test/oauth/token');
    assert.deepEqual(res.body.code_challenge_methods_supported, ['S256']);
    assert.equal(res.body.authorization_response_iss_parameter_supported, true);
    assert.equal(res.body.end_session_endpoint, 'http://callsign.test/authorize/logout', 'P68');
    assert.equal(res.body.service_documentation, 'http://callsign.test/docs', 'P112');
    assert.equal((await t.request('GET', '/docs')).status, 200, 'it is served');
    const rfc8414 = await t.request('GET', '/.well-known/oauth-authorization-server');
    assert.equal(rfc8414.status, 200);
    assert.deepEqual(rfc8414.body, res.body, 'P112: RFC 8414 metadata, the same document');
    assert.equal(rfc8414.headers['cache-control'], 'public, max-age=300');
  });
});
