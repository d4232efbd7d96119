import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as oidc from 'openid-client';
import { signUp, type TestApp } from '../helpers/app.ts';
import { adminRequest, decideConsent, postSignIn, REDIRECT, signInForm } from '../helpers/oauth.ts';
import { authorizationRequest, listeningApp } from '../helpers/relying-party.ts';

describe('dynamic client registration (RFC 7591) and its management (RFC 7592)', () => {
  let t: TestApp;
  let issuer: string;
  before(async () => {
    ({ t, issuer } = await listeningApp());
  });
  after(() => t.close());

  const initialToken = async (body: Record<string, unknown> = {}) => {
    const res = await adminRequest(t, 'POST', '/initial-access-tokens', body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { token: string; expires_at: string; uses: number };
  };
  const register = (token: string | undefined, body: Record<string, unknown>) =>
    t.request('POST', '/oauth/register', { ...(token ? { token } : {}), body });

  test('openid-client registers with an initial access token; the client signs a person in, who is asked to consent', async () => {
    const { token } = await initialToken({ uses: 2, expires_in: 600 });
    const config = await oidc.dynamicClientRegistration(
      new URL(issuer),
      {
        client_name: 'Agent',
        redirect_uris: [REDIRECT],
        scope: 'openid phone',
        client_uri: 'https://agent.example',
        post_logout_redirect_uris: ['https://rp.example/bye'],
        first_party: true,
      } as Partial<oidc.ClientMetadata>,
      undefined,
      { initialAccessToken: token, execute: [oidc.allowInsecureRequests] },
    );
    const meta = config.clientMetadata();
    assert.ok(meta.client_id);
    assert.ok(meta.client_secret, 'confidential by default: a secret, shown once');
    assert.equal(meta.client_secret_expires_at, 0);
    assert.ok(meta.registration_access_token);
    assert.equal(meta.registration_client_uri, `${issuer}/oauth/register/${meta.client_id}`);
    assert.equal(meta.client_uri, 'https://agent.example/');
    assert.equal(meta.first_party, false, 'a registration never skips consent');
    assert.equal(config.serverMetadata().registration_endpoint, `${issuer}/oauth/register`);

    const user = await signUp(t);
    const { url, verifier, state, nonce } = await authorizationRequest(config);
    const form = await signInForm(t, Object.fromEntries(url.searchParams));
    const signedIn = await postSignIn(t, form, user);
    assert.equal(signedIn.status, 200);
    assert.match(String(signedIn.body), /Allow/, 'the consent page');
    const sso = /callsign_sso=([^;]+)/.exec(String(signedIn.headers['set-cookie']))?.[1];
    const cookie = `callsign_csrf=${form.csrf}; callsign_sso=${sso}`;
    const back = await decideConsent(t, String(signedIn.body), cookie, 'allow');
    const tokens = await oidc.authorizationCodeGrant(config, back, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    assert.equal(tokens.claims()?.phone_number, user.phone);
  });

  test('an initial access token registers as many clients as it may, until it expires; two at once take one use', async () => {
    const client = { client_name: 'A', redirect_uris: [REDIRECT] };
    const once = await initialToken({ uses: 1 });
    const both = await Promise.all([register(once.token, client), register(once.token, client)]);
    assert.deepEqual(both.map((r) => r.status).sort(), [201, 401]);
    const later = await initialToken({ expires_in: 60 });
    t.clock.advance(61);
    const expired = await register(later.token, client);
    assert.equal(expired.status, 401);
    assert.equal(expired.body.error, 'invalid_token');
    assert.equal((await register(undefined, client)).status, 401, 'open registration is off');
    assert.equal((await register('cit_made-up', client)).status, 401);
    for (const body of [{ uses: 0 }, { uses: 1001 }, { expires_in: 0 }, { expires_in: 'soon' }])
      assert.equal(
        (await adminRequest(t, 'POST', '/initial-access-tokens', body)).status,
        400,
        JSON.stringify(body),
      );
  });

  test('bad metadata is invalid_redirect_uri or invalid_client_metadata', async () => {
    const { token } = await initialToken({ uses: 5 });
    const uri = await register(token, { client_name: 'A', redirect_uris: ['http://evil.example/cb'] });
    assert.equal(uri.status, 400);
    assert.equal(uri.body.error, 'invalid_redirect_uri');
    const scope = await register(token, {
      client_name: 'A',
      redirect_uris: [REDIRECT],
      scope: 'openid admin',
    });
    assert.equal(scope.body.error, 'invalid_client_metadata');
    const alg = await register(token, {
      client_name: 'A',
      redirect_uris: [REDIRECT],
      id_token_signed_response_alg: 'none',
    });
    assert.equal(alg.body.error, 'invalid_client_metadata');
  });

  test('the registration access token reads, changes and deletes the registration; nothing else does', async () => {
    const { token } = await initialToken();
    const made = (await register(token, { client_name: 'Mine', redirect_uris: [REDIRECT] })).body;
    const path = `/oauth/register/${made.client_id}`;
    const own = made.registration_access_token as string;
    const read = await t.request('GET', path, { token: own });
    assert.equal(read.status, 200);
    assert.equal(read.body.client_name, 'Mine');
    assert.equal(read.body.client_secret, undefined, 'the secret is shown once');
    const other = await t.request('GET', path, { token: 'crt_not-this-one' });
    assert.equal(other.status, 401);
    assert.match(String(other.headers['www-authenticate']), /^Bearer error="invalid_token"/);
    const put = await t.request('PUT', path, {
      token: own,
      body: { client_id: made.client_id, client_name: 'Renamed' },
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal(put.body.client_name, 'Renamed');
    const wrongId = await t.request('PUT', path, {
      token: own,
      body: { client_id: 'another', client_name: 'X' },
    });
    assert.equal(wrongId.body.error, 'invalid_client_metadata');
    const operators = await adminRequest(t, 'POST', '/clients', {
      client_name: 'Op',
      redirect_uris: [REDIRECT],
    });
    const notRegistered = await t.request('GET', `/oauth/register/${operators.body.client_id}`, {
      token: own,
    });
    assert.equal(notRegistered.status, 401, "an operator's client has no registration token");
    assert.equal((await t.request('DELETE', path, { token: own })).status, 204);
    assert.equal((await t.request('GET', path, { token: own })).status, 401, 'gone');
  });
});

describe('OPEN_CLIENT_REGISTRATION: public clients of apps, without an initial access token', () => {
  let t: TestApp;
  before(async () => {
    ({ t } = await listeningApp({
      OPEN_CLIENT_REGISTRATION: 'true',
      RATE_LIMITS: 'client_registration_address=4/3600',
    }));
  });
  after(() => t.close());

  test('loopback and app-scheme public clients only, limited per address', async () => {
    const register = (body: Record<string, unknown>) =>
      t.request('POST', '/oauth/register', { body, ip: '203.0.113.9' });
    const pub = await register({
      client_name: 'CLI agent',
      redirect_uris: ['http://127.0.0.1:33418/callback', 'com.example.agent:/cb'],
      token_endpoint_auth_method: 'none',
    });
    assert.equal(pub.status, 201, JSON.stringify(pub.body));
    assert.equal(pub.body.client_secret, undefined);
    const web = await register({
      client_name: 'Web',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    });
    assert.equal(web.body.error, 'invalid_redirect_uri');
    const secret = await register({ client_name: 'Conf', redirect_uris: ['http://127.0.0.1:1/cb'] });
    assert.equal(secret.body.error, 'invalid_client_metadata');
    // A device's client asks strangers for codes: it registers only with an operator's token.
    const device = await register({
      client_name: 'TV',
      grant_types: ['urn:ietf:params:oauth:grant-type:device_code'],
      token_endpoint_auth_method: 'none',
    });
    assert.equal(device.body.error, 'invalid_client_metadata');
    assert.match(device.body.error_description, /device authorization grant/);
    const over = await register({
      client_name: 'More',
      redirect_uris: ['http://127.0.0.1:1/cb'],
      token_endpoint_auth_method: 'none',
    });
    assert.equal(over.status, 429, 'the fifth registration from the address');
  });
});
