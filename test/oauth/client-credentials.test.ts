import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { signUp, type TestApp } from '../helpers/app.ts';
import {
  adminRequest,
  authorizationParams,
  pkce,
  REDIRECT,
  registerClient,
  tokenRequest,
} from '../helpers/oauth.ts';
import { discoverAs, listeningApp } from '../helpers/relying-party.ts';
import { ALL_EVENTS, type SignalsClient, sessionWith } from '../helpers/signals.ts';

// The client_credentials grant (RFC 6749 §4.4) for a client's own scope, ssf.manage, with openid-client 6 as
// the client: who may register it, what the token is (RFC 9068), where it is taken (the Shared Signals streams)
// and where it is not (a person's resources), and that a person's authorization never carries that scope.

describe('a client’s own token (client_credentials) manages its Shared Signals streams', () => {
  let t: TestApp;
  let issuer: string;
  let jwks: ReturnType<typeof createLocalJWKSet>;
  before(async () => {
    ({ t, issuer } = await listeningApp({ RATE_LIMITS: 'ssf_client=6/60' }));
    jwks = createLocalJWKSet((await t.request('GET', '/.well-known/jwks.json')).body);
  });
  after(() => t.close());

  /** A confidential client with the grant and its own scope, and openid-client configured as it. */
  async function serviceClient(extra: Record<string, unknown> = {}) {
    const c = await registerClient(t, {
      grant_types: ['client_credentials'],
      redirect_uris: undefined,
      scope: undefined,
      token_endpoint_auth_method: 'client_secret_basic',
      ...extra,
    });
    const secret = c.client_secret as string;
    const config = await discoverAs(issuer, c.client_id, {}, oidc.ClientSecretBasic(secret));
    return { id: c.client_id, secret, config };
  }
  const streams = (token: string, method = 'GET', body?: unknown, scheme = 'Bearer') =>
    t.request(method, '/ssf/streams', { body, headers: { authorization: `${scheme} ${token}` } });
  const pollStream = { events_requested: ALL_EVENTS, delivery: { method: 'urn:ietf:rfc:8936' } };

  test('registration: the grant needs a client that authenticates; ssf.manage needs the grant', async () => {
    const discovery = (await t.request('GET', '/.well-known/openid-configuration')).body;
    assert.ok(discovery.grant_types_supported.includes('client_credentials'));
    assert.ok(discovery.scopes_supported.includes('ssf.manage'));
    const own = await adminRequest(t, 'POST', '/clients', {
      client_name: 'Risk engine',
      grant_types: ['client_credentials'],
    });
    assert.equal(own.status, 201, JSON.stringify(own.body));
    assert.equal(own.body.scope, 'ssf.manage', 'a client with only its credentials gets its own scope');
    assert.deepEqual(own.body.redirect_uris, []);
    const publicOne = await adminRequest(t, 'POST', '/clients', {
      client_name: 'App',
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: 'none',
    });
    assert.equal(publicOne.status, 400);
    assert.match(publicOne.body.error_description, /\(grant_types\)$/);
    const scopeAlone = await adminRequest(t, 'POST', '/clients', {
      client_name: 'App',
      redirect_uris: ['https://app.example/cb'],
      scope: 'openid ssf.manage',
    });
    assert.equal(scopeAlone.status, 400);
    assert.match(scopeAlone.body.error_description, /\(scope\)$/);
  });

  test('openid-client gets a token typed at+jwt for the client itself, with no refresh or ID token', async () => {
    const c = await serviceClient();
    const tokens = await oidc.clientCredentialsGrant(c.config);
    assert.equal(tokens.token_type, 'bearer');
    assert.equal(tokens.scope, 'ssf.manage');
    assert.equal(tokens.expires_in, 600);
    assert.equal(tokens.refresh_token, undefined);
    assert.equal(tokens.id_token, undefined);
    const { payload } = await jwtVerify(tokens.access_token, jwks, {
      issuer,
      audience: issuer,
      typ: 'at+jwt',
      currentDate: t.clock.now(),
    });
    assert.equal(payload.client_id, c.id);
    assert.equal(payload.sub, c.id);
    assert.equal(payload.sid, undefined);
    assert.equal(decodeProtectedHeader(tokens.access_token).alg, 'RS256');
  });

  test('the grant asks for the client’s own scopes only, of a client that registered it', async () => {
    const c = await serviceClient();
    const asked = await tokenRequest(t, { grant_type: 'client_credentials', scope: 'openid' }, c);
    assert.equal(asked.status, 400);
    assert.equal(asked.body.error, 'invalid_scope');
    const person = await registerClient(t, { token_endpoint_auth_method: 'client_secret_basic' });
    const other = { id: person.client_id, secret: person.client_secret as string };
    const refused = await tokenRequest(t, { grant_type: 'client_credentials' }, other);
    assert.equal(refused.body.error, 'unauthorized_client');
  });

  test('the token manages only its client’s streams, and polls them', async () => {
    const a = await serviceClient();
    const b = await serviceClient();
    const tokenA = (await oidc.clientCredentialsGrant(a.config)).access_token;
    const tokenB = (await oidc.clientCredentialsGrant(b.config)).access_token;
    const created = await streams(tokenA, 'POST', pollStream);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.aud, a.id);
    const id = created.body.stream_id as string;
    assert.equal((await streams(tokenA)).body.length, 1);
    assert.deepEqual((await streams(tokenB)).body, []);
    const theirs = await t.request('GET', `/ssf/status?stream_id=${id}`, {
      headers: { authorization: `Bearer ${tokenB}` },
    });
    assert.equal(theirs.status, 404);
    const polled = await t.request('POST', `/ssf/poll/${id}`, {
      body: { maxEvents: 10 },
      headers: { authorization: `Bearer ${tokenA}` },
    });
    assert.equal(polled.status, 200, JSON.stringify(polled.body));
    assert.ok(polled.headers['x-ratelimit-limit'], 'a token’s calls count against the client’s limit');
  });

  test('a client’s calls count against ssf_client, with its token and with its secret alike', async () => {
    const c = await serviceClient();
    const token = (await oidc.clientCredentialsGrant(c.config)).access_token;
    const basic = `Basic ${Buffer.from(`${c.id}:${c.secret}`).toString('base64')}`;
    const statuses = [];
    for (const authorization of [...Array(3).fill(`Bearer ${token}`), ...Array(4).fill(basic)])
      statuses.push((await t.request('GET', '/ssf/streams', { headers: { authorization } })).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 429]);
  });

  test('a token that does not hold ssf.manage is refused with insufficient_scope (403)', async () => {
    const c = await serviceClient();
    const token = t.c.clientTokens.issue({ clientId: c.id, scope: '' });
    const res = await streams(token);
    assert.equal(res.status, 403);
    assert.equal(res.body.error, 'insufficient_scope');
    assert.match(String(res.headers['www-authenticate']), /^Bearer error="insufficient_scope"/);
  });

  test('a person’s token is no client’s token, and a client’s token is no person’s', async () => {
    const c = await serviceClient({
      grant_types: ['authorization_code', 'client_credentials'],
      redirect_uris: [REDIRECT],
      scope: 'openid phone ssf.manage',
    });
    const u = await signUp(t);
    const person = await sessionWith(t, c as SignalsClient, u);
    const refused = await streams(person.access_token);
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error, 'invalid_token');
    assert.match(String(refused.headers['www-authenticate']), /^Bearer error="invalid_token"/);
    const own = (await oidc.clientCredentialsGrant(c.config)).access_token;
    const userinfo = await t.request('GET', '/oauth/userinfo', {
      headers: { authorization: `Bearer ${own}` },
    });
    assert.equal(userinfo.status, 401);
    const api = await t.request('GET', '/api/v1/users/me', { headers: { authorization: `Bearer ${own}` } });
    assert.equal(api.status, 401);
  });

  test('a person’s authorization and a device request never ask for ssf.manage', async () => {
    const c = await serviceClient({
      grant_types: [
        'authorization_code',
        'client_credentials',
        'urn:ietf:params:oauth:grant-type:device_code',
      ],
      redirect_uris: [REDIRECT],
      scope: 'openid phone ssf.manage',
    });
    const { challenge } = pkce();
    const params = { ...authorizationParams(c.id, challenge), scope: 'openid ssf.manage' };
    const page = await t.request('GET', `/authorize?${new URLSearchParams(params)}`);
    const location = new URL(String(page.headers.location));
    assert.equal(location.searchParams.get('error'), 'invalid_scope');
    assert.doesNotMatch(String(location.searchParams.get('error_description')), /ssf\.manage/);
    const device = await t.request('POST', '/oauth/device_authorization', {
      body: new URLSearchParams({ scope: 'openid ssf.manage' }).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${c.id}:${c.secret}`).toString('base64')}`,
      },
    });
    assert.equal(device.status, 400);
    assert.equal(device.body.error, 'invalid_scope');
  });

  test('a token bound to a DPoP key is used only with a proof of that key', async () => {
    const c = await serviceClient();
    const handle = oidc.getDPoPHandle(c.config, await oidc.randomDPoPKeyPair('ES256'));
    const tokens = await oidc.clientCredentialsGrant(c.config, {}, { DPoP: handle });
    assert.equal(tokens.token_type, 'dpop');
    assert.equal((await streams(tokens.access_token)).status, 401, 'not as a bearer token');
    const res = await oidc.fetchProtectedResource(
      c.config,
      tokens.access_token,
      new URL(`${issuer}/ssf/streams`),
      'GET',
      undefined,
      undefined,
      { DPoP: handle },
    );
    assert.equal(res.status, 200);
  });

  test('introspection shows a client’s token to that client only', async () => {
    const c = await serviceClient();
    const other = await serviceClient();
    const token = (await oidc.clientCredentialsGrant(c.config)).access_token;
    const mine = await oidc.tokenIntrospection(c.config, token);
    assert.equal(mine.active, true);
    assert.equal(mine.client_id, c.id);
    assert.equal(mine.scope, 'ssf.manage');
    assert.equal((await oidc.tokenIntrospection(other.config, token)).active, false);
  });
  test('a token ends after ten minutes, and with its client', async () => {
    const c = await serviceClient();
    const token = (await oidc.clientCredentialsGrant(c.config)).access_token;
    assert.equal((await streams(token)).status, 200);
    t.clock.advance(601);
    assert.equal((await streams(token)).status, 401);
    const fresh = (await oidc.clientCredentialsGrant(c.config)).access_token;
    assert.equal((await adminRequest(t, 'DELETE', `/clients/${c.id}`)).status, 204);
    t.clock.advance(10); // past the clients' cache
    assert.equal((await streams(fresh)).status, 401);
  });
});
