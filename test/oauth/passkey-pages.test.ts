import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { translate } from '../../src/i18n/languages.ts';
import { type Answer, createTestApp, type SignedUp, signUp, type TestApp } from '../helpers/app.ts';
import { SoftAuthenticator } from '../helpers/authenticator.ts';
import {
  ADMIN_TOKEN,
  authorizationParams,
  authorizeUrl,
  exchangeCode,
  pageField,
  pkce,
  postPageForm,
  registerClient,
  signInForm,
} from '../helpers/oauth.ts';

// The hosted pages' passkey steps over plain HTTP, with a software authenticator in the browser's place: the
// sign-in with a passkey, the offer after a PIN's sign-in, "Not now", and a client's acr_values step-up.
// (The same pages in Chromium, with its virtual authenticator, are passkey-browser.test.ts.)

const ORIGIN = 'http://callsign.test';
const PHR = 'urn:callsign:acr:phr';
const ONE_FACTOR = 'urn:callsign:acr:1fa';

describe('hosted pages: passkeys sign in, are offered, and answer a step-up', () => {
  let t: TestApp;
  let clientId: string;
  before(async () => {
    t = await createTestApp({
      env: { ADMIN_TOKEN, RATE_LIMITS: 'signin_address=1000/900,signin_phone=1000/900' },
    });
    clientId = (await registerClient(t, { token_endpoint_auth_method: 'none' })).client_id;
  });
  after(() => t.close());

  /** A page's hidden field (the first form's). */

  /** The authorization request's page, with its state, CSRF token and the PKCE verifier for the code. */
  async function start(extra: Record<string, string> = {}, cookie = '') {
    const { verifier, challenge } = pkce();
    const params = authorizationParams(clientId, challenge, extra);
    if (!cookie) return { ...(await signInForm(t, params)), verifier };
    const csrf = 'c'.repeat(43);
    const sso = /callsign_sso=([^;]+)/.exec(cookie)?.[1];
    if (sso) ssoOf.set(csrf, sso);
    const page = await t.request('GET', authorizeUrl(params), {
      headers: { cookie: `callsign_csrf=${csrf}${cookie}` },
    });
    return { page, state: pageField(page, 'state'), csrf, verifier };
  }

  /** The ceremony's options the page's script asks for. */
  async function optionsFor(csrf: string, state: string, ceremony: 'signin' | 'register') {
    const answer = await post('/authorize/passkey/options', csrf, { state, ceremony });
    assert.equal(answer.status, 200, String(answer.body));
    assert.equal(answer.headers['cache-control'], 'no-store');
    return answer.body;
  }

  /** The ID token's amr and acr for the code a redirect carries. */
  async function claimsAfter(back: Answer, verifier: string) {
    assert.equal(back.status, 302, String(back.body));
    const code = new URL(String(back.headers.location)).searchParams.get('code') as string;
    const tokens = await exchangeCode(t, clientId, code, verifier);
    const claims = decodeJwt(tokens.body.id_token);
    return [claims.amr, claims.acr];
  }

  /** An account with a passkey on this software authenticator. */
  async function withPasskey(): Promise<{ s: SignedUp; key: SoftAuthenticator }> {
    const s = await signUp(t);
    const key = new SoftAuthenticator(ORIGIN);
    const opts = await t.request('POST', '/passkeys/registration/options', { token: s.access_token });
    const kept = await t.request('POST', '/passkeys/registration', {
      token: s.access_token,
      body: { response: key.create(opts.body.data) },
    });
    assert.equal(kept.status, 200, JSON.stringify(kept.body));
    return { s, key };
  }

  /** The single sign-on each browser (known by its CSRF token) holds: its later forms send it, as a browser does. */
  const ssoOf = new Map<string, string>();
  const pinSignIn = async (
    f: { csrf: string; state: string },
    s: SignedUp,
    extra: Record<string, string> = {},
  ) => {
    const fields = { state: f.state, phone: s.phone, pin: s.pin, ...extra };
    const answer = await postPageForm(t, '/authorize/signin', f.csrf, fields);
    const sso = /callsign_sso=([^;]+)/.exec(String(answer.headers['set-cookie']))?.[1];
    if (sso) ssoOf.set(f.csrf, sso);
    return answer;
  };
  /** One of the page's forms, posted with the browser's cookies. */
  const post = (path: string, csrf: string, fields: Record<string, string>) =>
    postPageForm(t, path, csrf, fields, ssoOf.has(csrf) ? `; callsign_sso=${ssoOf.get(csrf)}` : '');

  test('the sign-in page offers a passkey to a browser that has WebAuthn, and lets it fetch the options', async () => {
    const { page } = await start();
    const html = String(page.body);
    assert.match(
      html,
      /<form method="post" action="\/authorize\/passkey" data-passkey="signin" data-autofill="on" hidden>/,
    );
    assert.match(html, />Sign in with a passkey<\/button>/);
    assert.match(html, /autocomplete="tel webauthn"/);
    assert.match(html, /<script src="\/assets\/webauthn.js" defer><\/script>/);
    assert.match(String(page.headers['content-security-policy']), /connect-src 'self';/);
    const library = await t.request('GET', '/assets/webauthn.js');
    assert.match(String(library.body), /SimpleWebAuthnBrowser/);
    assert.match(String((await t.request('GET', '/assets/passkey.js')).body), /startAuthentication/);
  });

  test('a passkey signs in on the page: the code’s ID token says hwk and phr; its answer is used once', async () => {
    const { key } = await withPasskey();
    const { state, csrf, verifier } = await start();
    const response = JSON.stringify(key.get(await optionsFor(csrf, state, 'signin')));
    const back = await post('/authorize/passkey', csrf, { state, response });
    assert.match(String(back.headers['set-cookie']), /callsign_sso=/);
    assert.deepEqual(await claimsAfter(back, verifier), [['hwk', 'user', 'mfa'], PHR]);
    const again = await post('/authorize/passkey', csrf, { state, response });
    assert.equal(again.status, 401);
    assert.ok(String(again.body).includes(translate('en', 'passkey.failed')));
    assert.doesNotMatch(String(again.headers['set-cookie'] ?? ''), /callsign_sso=/);
    const notJson = await post('/authorize/passkey', csrf, { state, response: '{"id":' });
    assert.equal(notJson.status, 400);
  });

  test('after a PIN’s sign-in, a browser with a platform authenticator is offered one, and can make it', async () => {
    const s = await signUp(t);
    const f = await start();
    const offered = await pinSignIn(f, s, { platform_authenticator: '1' });
    assert.equal(offered.status, 200);
    assert.match(String(offered.body), />Create a passkey<\/button>/);
    assert.match(String(offered.body), />Not now<\/button>/);
    const state = pageField(offered, 'state');
    const key = new SoftAuthenticator(ORIGIN);
    const options = await optionsFor(f.csrf, state, 'register');
    assert.equal(options.authenticatorSelection.residentKey, 'required');
    const response = JSON.stringify(key.create(options));
    const made = await post('/authorize/passkey/create', f.csrf, { state, response });
    assert.deepEqual(await claimsAfter(made, f.verifier), [['pwd'], ONE_FACTOR]);
    const listed = await t.request('GET', '/passkeys', { token: s.access_token });
    assert.equal(listed.body.data.total, 1);
    // An account that has one is not offered another; a form without the browser's word is not offered one.
    const next = await start();
    assert.equal((await pinSignIn(next, s, { platform_authenticator: '1' })).status, 302);
    const other = await signUp(t);
    const plain = await start();
    assert.equal((await pinSignIn(plain, other)).status, 302);
  });

  test('the page after a passkey is made says it was made', async () => {
    const s = await signUp(t);
    const f = await start({ prompt: 'consent' });
    const offered = await pinSignIn(f, s, { platform_authenticator: '1' });
    const state = pageField(offered, 'state');
    const key = new SoftAuthenticator(ORIGIN);
    const response = JSON.stringify(key.create(await optionsFor(f.csrf, state, 'register')));
    const made = await post('/authorize/passkey/create', f.csrf, { state, response });
    assert.equal(made.status, 200, String(made.body));
    assert.match(
      String(made.body),
      /<p class="notice" role="status">Your passkey is created\. Next time, sign in with it\.<\/p>/,
    );
    assert.match(String(made.body), /name="decision" value="allow"/, 'on the consent page');
  });

  test('"Not now" goes on and is remembered in that browser for 30 days', async () => {
    const s = await signUp(t);
    const f = await start();
    const offered = await pinSignIn(f, s, { platform_authenticator: '1' });
    const state = pageField(offered, 'state');
    const later = await post('/authorize/passkey/later', f.csrf, { state });
    assert.match(
      String(later.headers['set-cookie']),
      /callsign_passkey_later=1; Max-Age=2592000; Path=\/authorize; HttpOnly/,
    );
    assert.deepEqual(await claimsAfter(later, f.verifier), [['pwd'], ONE_FACTOR]);
    const again = await start();
    const remembered = await pinSignIn(again, s, { platform_authenticator: '1' });
    assert.equal(remembered.status, 200);
    const withCookie = await postPageForm(
      t,
      '/authorize/signin',
      again.csrf,
      { state: again.state, phone: s.phone, pin: s.pin, platform_authenticator: '1' },
      '; callsign_passkey_later=1',
    );
    assert.equal(withCookie.status, 302);
    // The offer's state is for its own forms: consent and a registration elsewhere start again.
    assert.equal((await post('/authorize/consent', f.csrf, { state, decision: 'allow' })).status, 400);
    const signInState = again.state;
    const refused = await post('/authorize/passkey/options', again.csrf, {
      state: signInState,
      ceremony: 'register',
    });
    assert.equal(refused.status, 400);
  });

  test('acr_values phr: a PIN’s sign-in is asked for the account’s passkey; skipping it says 1fa', async () => {
    const { s, key } = await withPasskey();
    const f = await start({ acr_values: `urn:example:unknown ${PHR}` });
    const asked = await pinSignIn(f, s);
    assert.equal(asked.status, 200);
    assert.match(String(asked.body), />Continue without a passkey<\/button>/);
    const state = pageField(asked, 'state');
    // Another account's passkey does not confirm this one.
    const stranger = await withPasskey();
    const wrong = JSON.stringify(stranger.key.get(await optionsFor(f.csrf, state, 'signin')));
    assert.equal((await post('/authorize/passkey', f.csrf, { state, response: wrong })).status, 401);
    const response = JSON.stringify(key.get(await optionsFor(f.csrf, state, 'signin')));
    const confirmed = await post('/authorize/passkey', f.csrf, { state, response });
    assert.deepEqual(await claimsAfter(confirmed, f.verifier), [['hwk', 'user', 'mfa'], PHR]);
    const skipping = await start({ acr_values: PHR });
    const skipState = pageField(await pinSignIn(skipping, s), 'state');
    const skipped = await post('/authorize/passkey/skip', skipping.csrf, { state: skipState });
    assert.deepEqual(await claimsAfter(skipped, skipping.verifier), [['pwd'], ONE_FACTOR]);
  });

  test('acr_values phr over a PIN’s single sign-on asks for the passkey; an account without one goes on', async () => {
    const { s } = await withPasskey();
    const first = await start();
    const signedIn = await pinSignIn(first, s);
    const sso = /callsign_sso=([^;]+)/.exec(String(signedIn.headers['set-cookie']))?.[1] as string;
    const stepUp = await start({ acr_values: PHR }, `; callsign_sso=${sso}`);
    assert.equal(stepUp.page.status, 200);
    assert.match(String(stepUp.page.body), />Continue without a passkey<\/button>/);
    const none = await signUp(t);
    const f = await start({ acr_values: PHR });
    assert.deepEqual(await claimsAfter(await pinSignIn(f, none), f.verifier), [['pwd'], ONE_FACTOR]);
  });

  test('prompt=none never shows a page: a step-up it would need answers interaction_required', async () => {
    const { s } = await withPasskey();
    const first = await start();
    const signedIn = await pinSignIn(first, s);
    const sso = /callsign_sso=([^;]+)/.exec(String(signedIn.headers['set-cookie']))?.[1] as string;
    const silent = await start({ acr_values: PHR, prompt: 'none', state: 'st-1' }, `; callsign_sso=${sso}`);
    assert.equal(silent.page.status, 302, String(silent.page.body));
    const back = new URL(String(silent.page.headers.location));
    assert.equal(back.searchParams.get('error'), 'interaction_required');
    assert.equal(back.searchParams.get('state'), 'st-1');
    // Without acr_values the same single sign-on answers silently with a code.
    const plain = await start({ prompt: 'none' }, `; callsign_sso=${sso}`);
    assert.deepEqual(await claimsAfter(plain.page, plain.verifier), [['pwd'], ONE_FACTOR]);
  });
});

describe('hosted pages without passkeys (SIGNIN_METHODS=pin)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN, SIGNIN_METHODS: 'pin' } });
  });
  after(() => t.close());

  test('the sign-in page has no passkey form, script or fetches, and its options answer method_disabled', async () => {
    const client = await registerClient(t, { token_endpoint_auth_method: 'none' });
    const { page, state, csrf } = await signInForm(
      t,
      authorizationParams(client.client_id, pkce().challenge),
    );
    assert.doesNotMatch(String(page.body), /data-passkey|webauthn|platform_authenticator/);
    assert.doesNotMatch(String(page.headers['content-security-policy']), /connect-src/);
    const options = await postPageForm(t, '/authorize/passkey/options', csrf, { state, ceremony: 'signin' });
    assert.equal(options.status, 403);
  });
});
