import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { maskPhone } from '../../src/domain/phone.ts';
import { type Answer, createTestApp, signUp, type TestApp } from '../helpers/app.ts';
import {
  ADMIN_TOKEN,
  authorizationParams,
  authorizeUrl,
  pkce,
  postSignIn,
  registerClient,
  signInForm,
  signInForSso,
} from '../helpers/oauth.ts';

// Who is signed in, and "Not you?": every page shown under a single sign-on names its account, and the
// button ends that single sign-on in this browser and starts the authorization again at the sign-in page.

const FORM = 'application/x-www-form-urlencoded';

describe('hosted pages: who is signed in, and "Not you?"', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN } });
  });
  after(() => t.close());

  const field = (page: Answer, name: string) =>
    new RegExp(`name="${name}" value="([^"]*)"`).exec(String(page.body))?.[1] as string;
  const whoOf = (page: Answer) =>
    /<p>Signed in as ([^<]+)<\/p><button type="submit" class="secondary">Not you\?<\/button>/.exec(
      String(page.body),
    )?.[1];

  test('the consent page names the account; "Not you?" ends the single sign-on and shows the sign-in page', async () => {
    const s = await signUp(t, { name: 'Ada' });
    const thirdParty = await registerClient(t, { first_party: false, token_endpoint_auth_method: 'none' });
    const params = authorizationParams(thirdParty.client_id, pkce().challenge);
    const { state, csrf } = await signInForm(t, params);
    const consent = await postSignIn(t, { state, csrf }, s);
    assert.equal(consent.status, 200);
    assert.equal(whoOf(consent), `Ada (\u2066${maskPhone(s.phone)}\u2069)`);
    const sso = /callsign_sso=([^;]+)/.exec(String(consent.headers['set-cookie']))?.[1] as string;
    const cookie = `callsign_csrf=${csrf}; callsign_sso=${sso}`;
    const notYou = await t.request('POST', '/authorize/not-you', {
      body: new URLSearchParams({ state: field(consent, 'state'), csrf }).toString(),
      headers: { 'content-type': FORM, cookie },
    });
    assert.equal(notYou.status, 200);
    assert.match(String(notYou.headers['set-cookie']), /callsign_sso=; Max-Age=0/);
    assert.match(String(notYou.body), /name="pin"/, 'the sign-in page');
    assert.equal(whoOf(notYou), undefined);
    // The single sign-on is over on the server too: the old cookie signs no one in.
    const again = await t.request('GET', authorizeUrl(params), { headers: { cookie } });
    assert.equal(again.status, 200);
    assert.match(String(again.body), /name="pin"/);
  });

  test('the sign-in page shown under a single sign-on (prompt=login) names its account', async () => {
    const s = await signUp(t, { name: 'Grace' });
    const client = await registerClient(t, { token_endpoint_auth_method: 'none' });
    const { cookie } = await signInForSso(t, authorizationParams(client.client_id, pkce().challenge), s);
    const params = authorizationParams(client.client_id, pkce().challenge, { prompt: 'login' });
    const page = await t.request('GET', authorizeUrl(params), { headers: { cookie } });
    assert.equal(whoOf(page), `Grace (\u2066${maskPhone(s.phone)}\u2069)`);
    const fresh = await t.request('GET', authorizeUrl(params));
    assert.equal(whoOf(fresh), undefined, 'no single sign-on, no name');
  });
});
