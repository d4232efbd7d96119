import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, signUp, type TestApp } from '../helpers/app.ts';
import { ADMIN_TOKEN, authorizationParams, pkce, registerClient, signInForm } from '../helpers/oauth.ts';

// Over https, every cookie of the pages (the hosted sign-in, the console) takes the __Host- prefix: Secure,
// Path=/, no Domain, so a sibling subdomain cannot plant one. A cookie of the same name without the prefix,
// as such a subdomain could set, is not read.

const setCookies = (headers: Record<string, unknown>) => [headers['set-cookie'] ?? []].flat().map(String);

describe('cookies of the pages over https', () => {
  let t: TestApp;
  let clientId: string;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN, BASE_URL: 'https://callsign.test' } });
    clientId = (await registerClient(t, { token_endpoint_auth_method: 'none' })).client_id;
  });
  after(() => t.close());

  test('the hosted pages: __Host- with Path=/ and Secure; a plain-named CSRF cookie is not read', async () => {
    const u = await signUp(t);
    const { page, state, csrf } = await signInForm(t, authorizationParams(clientId, pkce().challenge));
    const [csrfCookie] = setCookies(page.headers);
    assert.match(
      csrfCookie,
      /^__Host-callsign_csrf=[^;]+; Max-Age=3600; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    );
    const form = new URLSearchParams({ state, csrf, phone: u.phone, pin: u.pin }).toString();
    const post = (cookie: string) =>
      t.request('POST', '/authorize/signin', {
        body: form,
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      });
    // As a sibling subdomain could set it: the same value under the plain name.
    assert.equal((await post(`callsign_csrf=${csrf}`)).status, 400, 'the form expired');
    const signedIn = await post(`__Host-callsign_csrf=${csrf}`);
    assert.equal(signedIn.status, 302, JSON.stringify(signedIn.body));
    const sso = setCookies(signedIn.headers).find((c) => c.includes('callsign_sso='));
    assert.match(
      String(sso),
      /^__Host-callsign_sso=[^;]+; Max-Age=\d+; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    );
  });

  test('the console: __Host- with Path=/, Secure and SameSite=Strict', async () => {
    const signin = await t.request('GET', '/console/signin');
    const [cookie] = setCookies(signin.headers);
    assert.match(
      cookie,
      /^__Host-callsign_console_signin=[^;]+; Max-Age=900; Path=\/; HttpOnly; Secure; SameSite=Strict$/,
    );
    const csrf = /=([^;]+)/.exec(cookie)?.[1] as string;
    const post = (name: string) =>
      t.request('POST', '/console/signin', {
        body: new URLSearchParams({ csrf, token: ADMIN_TOKEN }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `${name}=${csrf}` },
      });
    assert.equal((await post('callsign_console_signin')).status, 400, 'a plain-named cookie is not read');
    const signedIn = await post('__Host-callsign_console_signin');
    assert.equal(signedIn.status, 303);
    const session = setCookies(signedIn.headers).find((c) => c.includes('callsign_console='));
    assert.match(
      String(session),
      /^__Host-callsign_console=[^;]+; Max-Age=\d+; Path=\/; HttpOnly; Secure; SameSite=Strict$/,
    );
  });
});
