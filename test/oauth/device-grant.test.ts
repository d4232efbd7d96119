import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as oauth from 'oauth4webapi';
import * as oidc from 'openid-client';
import { housekeeping } from '../../src/workers/housekeeping.ts';
import { type Answer, type SignedUp, signUp, type TestApp, uniqueIp } from '../helpers/app.ts';
import {
  adminRequest,
  DEVICE_GRANT,
  pageField,
  registerClient,
  registerDeviceClient,
} from '../helpers/oauth.ts';
import { discoverAs, listeningApp } from '../helpers/relying-party.ts';

const USER_CODE = /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/;

describe('the device authorization grant (RFC 8628)', () => {
  let t: TestApp;
  let issuer: string;
  let user: SignedUp;
  let tv: { client_id: string };
  let config: oidc.Configuration;
  before(async () => {
    ({ t, issuer } = await listeningApp());
    user = await signUp(t);
    // First party, and a device's client without redirect URIs: consent is asked all the same.
    tv = await registerDeviceClient(t, ['refresh_token']);
    config = await discoverAs(issuer, tv.client_id);
  });
  after(() => t.close());

  /** The device's poll, one request, as oauth4webapi makes it: the error it is answered, or the tokens. */
  const poll = async (deviceCode: string, clientId = tv.client_id) => {
    const as = config.serverMetadata();
    const client = { client_id: clientId };
    const response = await oauth.deviceCodeGrantRequest(as, client, oauth.None(), deviceCode, {
      [oauth.allowInsecureRequests]: true,
    });
    try {
      return { tokens: await oauth.processDeviceCodeResponse(as, client, response) };
    } catch (err) {
      if (err instanceof oauth.ResponseBodyError) return { error: err.error, status: err.status };
      throw err;
    }
  };
  const start = (scope = 'openid phone') => oidc.initiateDeviceAuthorization(config, { scope });

  /** The person at the verification page from `ip`: the page, then the code typed; answers what follows. */
  const typeCode = async (typed: string, ip = uniqueIp(), cookie = '') => {
    const page = await t.request('GET', '/authorize/device', { ip, headers: cookie ? { cookie } : {} });
    const csrf =
      /callsign_csrf=([^;]+)/.exec(String(page.headers['set-cookie']))?.[1] ?? pageField(page, 'csrf');
    const answer = await t.request('POST', '/authorize/device', {
      ip,
      body: new URLSearchParams({ csrf, user_code: typed }).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `callsign_csrf=${csrf}${cookie ? `; ${cookie}` : ''}`,
      },
    });
    return { answer, csrf };
  };
  /** A form of the flow posted as its browser would, with its cookies. */
  const post = (path: string, cookies: string, fields: Record<string, string>) =>
    t.request('POST', path, {
      body: new URLSearchParams({
        csrf: /callsign_csrf=([^;]+)/.exec(cookies)?.[1] ?? '',
        ...fields,
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookies },
    });
  /** The browser's cookies after this answer: the CSRF cookie, and the single sign-on the answer set. */
  const withSso = (csrf: string, answer: Answer) => {
    const sso = /callsign_sso=([^;]+)/.exec(String(answer.headers['set-cookie']))?.[1];
    return `callsign_csrf=${csrf}${sso ? `; callsign_sso=${sso}` : ''}`;
  };
  /** Types the code, signs in as `who`; answers the consent page it reaches and the browser's cookies. */
  const toConsent = async (typed: string, who: { phone: string; pin: string } = user) => {
    const { answer: signIn, csrf } = await typeCode(typed);
    assert.equal(signIn.status, 200);
    assert.match(String(signIn.body), /name="pin"/);
    const consent = await post('/authorize/signin', `callsign_csrf=${csrf}`, {
      state: pageField(signIn),
      phone: who.phone,
      pin: who.pin,
    });
    assert.equal(consent.status, 200);
    return { consent, cookies: withSso(csrf, consent) };
  };
  const decide = (at: { consent: Answer; cookies: string }, decision: 'allow' | 'deny') =>
    post('/authorize/consent', at.cookies, { state: pageField(at.consent), decision });

  test('discovery names the endpoint and the grant', async () => {
    const metadata = config.serverMetadata();
    assert.equal(metadata.device_authorization_endpoint, `${issuer}/oauth/device_authorization`);
    assert.ok(metadata.grant_types_supported?.includes(DEVICE_GRANT));
  });

  test('a device is signed in: code typed in any case without its dash, sign-in, consent always asked, tokens by openid-client', async () => {
    const device = await start();
    assert.match(device.user_code, USER_CODE);
    assert.equal(device.verification_uri, `${issuer}/device`);
    assert.equal(device.verification_uri_complete, `${issuer}/device?user_code=${device.user_code}`);
    assert.equal(device.expires_in, 600);
    assert.equal(device.interval, 5);
    // The short address opens the page with the code filled in, which the person still confirms.
    const short = await t.request('GET', `/device?user_code=${device.user_code}`);
    assert.equal(short.status, 302);
    assert.equal(short.headers.location, `/authorize/device?user_code=${device.user_code}`);
    const page = await t.request('GET', String(short.headers.location));
    assert.match(String(page.body), /Enter the code shown on your device/);
    assert.match(String(page.body), new RegExp(`value="${device.user_code}"`));

    assert.equal((await poll(device.device_code)).error, 'authorization_pending');
    const at = await toConsent(device.user_code.replace('-', '').toLowerCase());
    assert.match(String(at.consent.body), /Living Room TV would like to:/);
    assert.match(String(at.consent.body), /Allow only if you started this sign-in on your own device/);
    const done = await decide(at, 'allow');
    assert.equal(done.status, 200);
    assert.match(String(done.body), /Living Room TV is now signed in on your device/);

    // openid-client polls (without waiting, as the device was allowed already) and checks the ID token.
    t.clock.advance(5);
    const tokens = await oidc.pollDeviceAuthorizationGrant(config, { ...device, interval: 0 });
    assert.equal(tokens.claims()?.sub, user.user.id);
    assert.equal(tokens.scope, 'openid phone');
    assert.ok(tokens.refresh_token);
    // Once: the device code is spent.
    t.clock.advance(5);
    assert.deepEqual(await poll(device.device_code), { error: 'invalid_grant', status: 400 });
  });

  test('polled too soon: slow_down, and the interval grows by 5 seconds for every poll after', async () => {
    const device = await start();
    assert.equal((await poll(device.device_code)).error, 'authorization_pending');
    assert.equal((await poll(device.device_code)).error, 'slow_down');
    t.clock.advance(5);
    assert.equal((await poll(device.device_code)).error, 'slow_down', 'the interval is 10 s now');
    t.clock.advance(15);
    assert.equal((await poll(device.device_code)).error, 'authorization_pending');
  });

  test('denied: access_denied, on every poll after', async () => {
    const device = await start();
    const at = await toConsent(device.user_code);
    const denied = await decide(at, 'deny');
    assert.equal(denied.status, 200);
    assert.match(String(denied.body), /Living Room TV was not signed in on your device/);
    assert.equal((await poll(device.device_code)).error, 'access_denied');
    t.clock.advance(5);
    assert.equal((await poll(device.device_code)).error, 'access_denied');
    // The decision is made once: allowing in another tab afterwards is refused.
    const late = await decide(at, 'allow');
    assert.equal(late.status, 400);
    assert.match(String(late.body), /expired or was already used/);
  });

  test('expired: expired_token, and the code is no longer accepted on the page', async () => {
    const device = await start();
    t.clock.advance(601);
    assert.equal((await poll(device.device_code)).error, 'expired_token');
    const { answer } = await typeCode(device.user_code);
    assert.equal(answer.status, 400);
    assert.match(String(answer.body), /That code is not right, or it has expired/);
  });

  test('an allowed request expiring before its poll gets no tokens', async () => {
    const device = await start();
    await decide(await toConsent(device.user_code), 'allow');
    t.clock.advance(601);
    assert.equal((await poll(device.device_code)).error, 'expired_token');
  });

  test("another client cannot poll a device's code, and two polls at once get one set of tokens", async () => {
    const other = await registerClient(t, {
      grant_types: [DEVICE_GRANT],
      token_endpoint_auth_method: 'none',
    });
    const device = await start();
    await decide(await toConsent(device.user_code), 'allow');
    assert.equal((await poll(device.device_code, other.client_id)).error, 'invalid_grant');
    const both = await Promise.all([poll(device.device_code), poll(device.device_code)]);
    assert.equal(both.filter((p) => p.tokens).length, 1);
    assert.deepEqual(
      both.filter((p) => !p.tokens),
      [{ error: 'invalid_grant', status: 400 }],
    );
  });

  test('an account locked after it allowed the device gets the device no tokens', async () => {
    const other = await signUp(t);
    const device = await start();
    assert.equal((await decide(await toConsent(device.user_code, other), 'allow')).status, 200);
    assert.equal((await adminRequest(t, 'POST', `/users/${other.user.id}/lock`)).status, 200);
    assert.equal((await poll(device.device_code)).error, 'invalid_grant');
  });

  test('user codes guessed: 5 wrong ones an address in 15 minutes, then not even the right one is looked up', async () => {
    const device = await start();
    const ip = uniqueIp();
    for (let i = 0; i < 5; i++) {
      const { answer } = await typeCode('BBBB-BBBB', ip);
      assert.equal(answer.status, 400);
    }
    const { answer: sixth } = await typeCode('BBBB-BBBB', ip);
    assert.equal(sixth.status, 429);
    const { answer: right } = await typeCode(device.user_code, ip);
    assert.equal(right.status, 429, 'the right code is refused too once the limit is used up');
    // Something that cannot be a code is refused as wrong, never looked up: it counts the same.
    const { answer: malformed } = await typeCode('0000-0000');
    assert.equal(malformed.status, 400);
    // A quarter of an hour on, the address may try again (with a new request: the first one has expired).
    t.clock.advance(900);
    const { answer: later } = await typeCode((await start()).user_code, ip);
    assert.equal(later.status, 200);
  });

  test('the device authorization endpoint refuses what a device may not ask', async () => {
    const ask = (form: Record<string, string>) =>
      t.request('POST', '/oauth/device_authorization', {
        body: new URLSearchParams(form).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    assert.equal((await ask({ client_id: tv.client_id })).body.error, 'invalid_scope');
    assert.equal((await ask({ client_id: tv.client_id, scope: 'openid kyc' })).body.error, 'invalid_scope');
    const web = await registerClient(t, { token_endpoint_auth_method: 'none' });
    assert.equal(
      (await ask({ client_id: web.client_id, scope: 'openid' })).body.error,
      'unauthorized_client',
    );
    assert.equal((await ask({ client_id: 'nobody', scope: 'openid' })).body.error, 'invalid_client');
  });

  test('clients: a device-only client needs no redirect URIs; every client needs a grant a person signs in for', async () => {
    const refreshOnly = await adminRequest(t, 'POST', '/clients', {
      client_name: 'x',
      grant_types: ['refresh_token'],
    });
    assert.equal(refreshOnly.status, 400);
    const codeWithout = await adminRequest(t, 'POST', '/clients', { client_name: 'x' });
    assert.equal(codeWithout.status, 400);
    const deviceOnly = await adminRequest(t, 'POST', '/clients', {
      client_name: 'x',
      grant_types: [DEVICE_GRANT],
    });
    assert.equal(deviceOnly.status, 201);
    assert.deepEqual(deviceOnly.body.redirect_uris, []);
  });

  test('housekeeping removes requests a day past their end; a live one stays', async () => {
    const count = async () => (await t.c.db.query('SELECT 1 FROM device_authorizations')).length;
    assert.ok((await count()) > 1);
    t.clock.advance(2 * 86400);
    await start();
    const removed = await housekeeping(t.c.db).run(t.clock.now());
    assert.ok(removed.device_authorizations > 0, JSON.stringify(removed));
    assert.equal(await count(), 1);
  });
});
