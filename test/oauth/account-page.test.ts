import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { maskPhone } from '../../src/domain/phone.ts';
import { type Answer, createTestApp, events, type SignedUp, signUp, type TestApp } from '../helpers/app.ts';
import { SoftAuthenticator } from '../helpers/authenticator.ts';
import {
  ADMIN_TOKEN,
  authorizationParams,
  decideConsent,
  pageField,
  pkce,
  postPageForm,
  postSignIn,
  registerClient,
  signInForm,
} from '../helpers/oauth.ts';

// The account page through HTTP: a visit without a single sign-on goes through the sign-in page and back,
// and every change (profile, another sign-in, an app's access, passkeys, recovery codes, deletion) calls the
// REST call's own rule, under the page's CSRF token and, where it says, a sign-in at most 10 minutes old.

const ORIGIN = 'http://callsign.test';
const FORM = 'application/x-www-form-urlencoded';

describe('the account page', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({
      env: { ADMIN_TOKEN, RATE_LIMITS: 'signin_address=1000/900,signin_phone=1000/900' },
    });
  });
  after(() => t.close());

  /** Signs in from the account page itself: the sign-in page it shows, then back to it, signed in. */
  async function signInHere(s: SignedUp, query = '') {
    const first = await t.request('GET', `/authorize/account${query}`);
    assert.equal(first.status, 200);
    assert.match(String(first.body), /name="pin"/, 'the sign-in page');
    const csrf = /callsign_csrf=([^;]+)/.exec(String(first.headers['set-cookie']))?.[1] as string;
    const back = await postPageForm(t, '/authorize/signin', csrf, {
      state: pageField(first),
      phone: s.phone,
      pin: s.pin,
    });
    assert.equal(back.status, 303, String(back.body));
    const sso = /callsign_sso=([^;]+)/.exec(String(back.headers['set-cookie']))?.[1] as string;
    return {
      csrf,
      cookie: `callsign_csrf=${csrf}; callsign_sso=${sso}`,
      location: String(back.headers.location),
    };
  }

  const open = (cookie: string, path = '/authorize/account') =>
    t.request('GET', path, { headers: { cookie } });
  const post = (h: { csrf: string; cookie: string }, path: string, fields: Record<string, string>) =>
    t.request('POST', `/authorize/account/${path}`, {
      body: new URLSearchParams({ csrf: h.csrf, ...fields }).toString(),
      headers: { 'content-type': FORM, cookie: h.cookie },
    });
  const noticeOf = (page: Answer) =>
    /<p class="notice" role="status">([^<]+)<\/p>/.exec(String(page.body))?.[1];

  test('{auth_url}/account goes through the sign-in page and back, and the page names the account', async () => {
    const s = await signUp(t, { name: 'Ada' });
    const link = await t.request('GET', '/account');
    assert.equal(link.status, 302);
    assert.equal(link.headers.location, '/authorize/account');
    const h = await signInHere(s);
    assert.equal(h.location, '/authorize/account');
    const page = await open(h.cookie);
    assert.equal(page.status, 200);
    assert.match(String(page.body), /<h1>Your account<\/h1>/);
    assert.ok(String(page.body).includes(`Signed in as Ada (\u2066${maskPhone(s.phone)}\u2069)`));
    assert.match(String(page.headers['content-security-policy']), /frame-ancestors 'none'/);
  });

  test('return_to comes back only for a registered redirect URI’s origin', async () => {
    await registerClient(t, { token_endpoint_auth_method: 'none' });
    const s = await signUp(t);
    const mine = encodeURIComponent('https://rp.example/home');
    const h = await signInHere(s, `?return_to=${mine}`);
    assert.equal(h.location, `/authorize/account?return_to=${mine}`);
    const page = await open(h.cookie, h.location);
    assert.match(String(page.body), /<a href="https:\/\/rp.example\/home">Back to rp.example<\/a>/);
    const elsewhere = await open(
      h.cookie,
      `/authorize/account?return_to=${encodeURIComponent('https://evil.example/')}`,
    );
    assert.doesNotMatch(String(elsewhere.body), /evil\.example/);
  });

  test('a post needs the page’s CSRF token; a browser no longer signed in goes back to the page', async () => {
    const s = await signUp(t);
    const h = await signInHere(s);
    const forged = await post({ csrf: 'x'.repeat(43), cookie: h.cookie }, 'profile', { name: 'Eve' });
    assert.equal(forged.status, 400);
    const signedOut = await post({ csrf: h.csrf, cookie: `callsign_csrf=${h.csrf}` }, 'profile', {
      name: 'Eve',
    });
    assert.equal(signedOut.status, 303);
    assert.equal(signedOut.headers.location, '/authorize/account');
    assert.equal((await t.request('GET', '/users/me', { token: s.access_token })).body.data.name, null);
  });

  test('the profile: name, handle and language, with the REST call’s rules and event', async () => {
    const s = await signUp(t);
    const h = await signInHere(s);
    const saved = await post(h, 'profile', { name: 'Grace', handle: `${s.handle}x`, language: 'hi' });
    assert.equal(saved.status, 303);
    assert.equal(saved.headers.location, '/authorize/account?done=saved');
    const me = (await t.request('GET', '/users/me', { token: s.access_token })).body.data;
    assert.deepEqual([me.name, me.handle, me.language], ['Grace', `${s.handle}x`, 'hi']);
    assert.ok(
      (await events(t, 'user.updated')).some((e) => (e.data.user as { id: string }).id === s.user.id),
    );
    const inHindi = await open(h.cookie, String(saved.headers.location));
    assert.match(String(inHindi.body), /<html lang="hi"/);
    assert.equal(noticeOf(inHindi), 'आपके बदलाव सहेज दिए गए।');
    const bad = await post(h, 'profile', { name: 'Grace', handle: 'Not A Handle', language: 'hi' });
    assert.equal(bad.status, 400);
    assert.match(String(bad.body), /aria-invalid="true"/);
  });

  test('sessions: each of the account’s sign-ins is listed and can be signed out; another’s cannot', async () => {
    const s = await signUp(t, { device: { name: 'Pixel 8', platform: 'android' } });
    const other = await signUp(t);
    const h = await signInHere(s);
    const page = await open(h.cookie);
    assert.match(String(page.body), /This browser/);
    assert.match(String(page.body), /<strong>Pixel 8<\/strong> · Android app · /, 'the platform, in words');
    // In the page's language.
    await t.request('PATCH', '/users/me', { token: s.access_token, body: { language: 'hi' } });
    assert.match(String((await open(h.cookie)).body), /<strong>Pixel 8<\/strong> · Android ऐप · /);
    // A passkey added from that session says so, for the person to spot one they did not add.
    await t.request('PATCH', '/users/me', { token: s.access_token, body: { language: 'en' } });
    const options = await t.request('POST', '/passkeys/registration/options', { token: s.access_token });
    const added = await t.request('POST', '/passkeys/registration', {
      token: s.access_token,
      body: { response: new SoftAuthenticator(ORIGIN).create(options.body.data) },
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.match(String((await open(h.cookie)).body), / · from Pixel 8 \(Android app\)<\/p>/);
    const [foreignId] = (await t.c.sessions.listActive(other.user.id)).sessions.map((x) => x.id);
    const foreign = await post(h, 'session', { session: foreignId as string });
    assert.equal(foreign.status, 404);
    const mine = pageField(page, 'session');
    const ended = await post(h, 'session', { session: mine });
    assert.equal(ended.headers.location, '/authorize/account?done=session_ended');
    assert.equal((await t.request('GET', '/users/me', { token: s.access_token })).status, 401);
    const revoked = (await events(t, 'session.revoked')).find((e) => e.data.session_id === mine);
    assert.equal(revoked?.data.reason, 'user_revoked');
  });

  test('connected apps: an app allowed on the consent page is listed, and "Remove access" takes it back', async () => {
    const s = await signUp(t);
    const app = await registerClient(t, {
      first_party: false,
      token_endpoint_auth_method: 'none',
      client_name: 'Chai Club',
    });
    const h = await signInHere(s);
    const { state, csrf } = await signInForm(t, authorizationParams(app.client_id, pkce().challenge));
    const consent = await postSignIn(t, { state, csrf }, s);
    const sso = /callsign_sso=([^;]+)/.exec(String(consent.headers['set-cookie']))?.[1] as string;
    const allowed = await decideConsent(
      t,
      String(consent.body),
      `callsign_csrf=${csrf}; callsign_sso=${sso}`,
      'allow',
    );
    assert.ok(allowed.searchParams.get('code'));
    const page = await open(h.cookie);
    assert.match(String(page.body), /<strong>Chai Club<\/strong>/);
    const removed = await post(h, 'app', { client_id: app.client_id });
    assert.equal(removed.headers.location, '/authorize/account?done=access_removed');
    const apps = await t.request('GET', '/users/me/apps', { token: s.access_token });
    assert.equal(apps.body.data.apps.length, 0);
    assert.equal((await post(h, 'app', { client_id: app.client_id })).status, 404, 'already gone');
  });

  test('passkeys: added, renamed and removed; adding and removing need a sign-in at most 10 minutes old', async () => {
    const s = await signUp(t);
    const h = await signInHere(s);
    const key = new SoftAuthenticator(ORIGIN);
    const options = await post(h, 'passkey/options', { ceremony: 'register' });
    assert.equal(options.status, 200, String(options.body));
    const added = await post(h, 'passkey', { response: JSON.stringify(key.create(options.body)) });
    assert.equal(added.headers.location, '/authorize/account?done=passkey_added');
    const page = await open(h.cookie);
    const id = pageField(page, 'passkey');
    const renamed = await post(h, 'passkey/rename', { passkey: id, name: 'My phone' });
    assert.equal(renamed.headers.location, '/authorize/account?done=passkey_renamed');
    assert.match(String((await open(h.cookie)).body), /value="My phone"/);
    t.clock.advance(601);
    const stale = await open(h.cookie);
    assert.match(String(stale.body), />Sign in again</);
    assert.doesNotMatch(String(stale.body), /data-passkey="register"/);
    const refused = await post(h, 'passkey/remove', { passkey: id });
    assert.equal(refused.status, 403);
    assert.match(String(refused.body), /Sign in again first/);
    assert.equal((await post(h, 'passkey/options', { ceremony: 'register' })).status, 403);
    const lateDelete = await post(h, 'delete', { pin: s.pin, confirmation: 'DELETE MY ACCOUNT' });
    assert.equal(lateDelete.status, 403, 'deleting needs a recent sign-in too');
    // Signing in again (asked even under the single sign-on) makes the sign-in recent.
    const again = await t.request('GET', '/authorize/account/sign-in', { headers: { cookie: h.cookie } });
    assert.match(String(again.body), /name="pin"/);
    const back = await postPageForm(t, '/authorize/signin', h.csrf, {
      state: pageField(again),
      phone: s.phone,
      pin: s.pin,
    });
    const sso = /callsign_sso=([^;]+)/.exec(String(back.headers['set-cookie']))?.[1] as string;
    const fresh = { csrf: h.csrf, cookie: `callsign_csrf=${h.csrf}; callsign_sso=${sso}` };
    const removed = await post(fresh, 'passkey/remove', { passkey: id });
    assert.equal(removed.headers.location, '/authorize/account?done=passkey_removed');
    assert.equal((await t.request('GET', '/passkeys', { token: s.access_token })).body.data.total, 0);
  });

  test('recovery codes: made with the PIN, shown once, counted; a stale sign-in or a wrong PIN is refused', async () => {
    const s = await signUp(t);
    const h = await signInHere(s);
    const wrong = await post(h, 'recovery-codes', { pin: '000000' === s.pin ? '111111' : '000000' });
    assert.equal(wrong.status, 401);
    const made = await post(h, 'recovery-codes', { pin: s.pin });
    assert.equal(made.status, 200);
    assert.equal(String(made.body).match(/<li><code>[A-Z0-9]{5}-[A-Z0-9]{5}<\/code><\/li>/g)?.length, 10);
    assert.match(String((await open(h.cookie)).body), /10 recovery codes left\./);
    assert.ok((await events(t, 'recovery_codes.generated')).some((e) => e.data.user_id === s.user.id));
    t.clock.advance(601);
    assert.equal((await post(h, 'recovery-codes', { pin: s.pin })).status, 403);
  });

  test('"Delete account": the phrase and the PIN, then the account and this browser’s sign-in are gone', async () => {
    const s = await signUp(t);
    const h = await signInHere(s);
    const misspelt = await post(h, 'delete', { pin: s.pin, confirmation: 'delete my account' });
    assert.equal(misspelt.status, 400);
    assert.match(String(misspelt.body), /Type the phrase exactly as shown\./);
    const deleted = await post(h, 'delete', { pin: s.pin, confirmation: 'DELETE MY ACCOUNT' });
    assert.equal(deleted.status, 200);
    assert.match(String(deleted.body), /Account deleted/);
    assert.match(String(deleted.headers['set-cookie']), /callsign_sso=; Max-Age=0/);
    assert.equal((await t.request('GET', '/users/me', { token: s.access_token })).status, 401);
    assert.ok((await events(t, 'user.deleted')).some((e) => e.data.user_id === s.user.id));
    const after = await open(h.cookie);
    assert.match(String(after.body), /name="pin"/, 'the old cookie signs no one in');
  });

  test('"Change PIN": the current PIN and a new one; this browser stays signed in, every other sign-in ends', async () => {
    const s = await signUp(t);
    const h = await signInHere(s);
    const elsewhere = await signInHere(s);
    const field = (page: Answer, name: string) =>
      new RegExp(`id="${name}-error" role="alert">([^<]+)<`).exec(String(page.body))?.[1];
    const wrong = await post(h, 'pin', { current_pin: '918273', new_pin: '730194' });
    assert.equal(wrong.status, 401);
    assert.equal(field(wrong, 'current_pin'), 'Wrong PIN.');
    const weak = await post(h, 'pin', { current_pin: s.pin, new_pin: '1234' });
    assert.equal(field(weak, 'new_pin'), 'This PIN is too easy to guess. Choose another.');
    const same = await post(h, 'pin', { current_pin: s.pin, new_pin: s.pin });
    assert.equal(field(same, 'new_pin'), 'Choose a PIN other than your current one.');
    assert.equal((await events(t, 'user.pin_changed')).filter((e) => e.data.user_id === s.user.id).length, 0);

    const changed = await post(h, 'pin', { current_pin: s.pin, new_pin: '730194' });
    assert.equal(changed.status, 303);
    const shown = await open(h.cookie, String(changed.headers.location));
    assert.equal(noticeOf(shown), 'Your PIN is changed, and your other sign-ins have ended.');
    assert.match(
      String((await open(elsewhere.cookie)).body),
      /name="pin"/,
      'the other browser is signed out',
    );
    assert.equal(
      (await t.request('POST', '/auth/refresh', { body: { refresh_token: s.refresh_token } })).status,
      401,
    );
    const signIn = (pin: string) => t.request('POST', '/auth/signin', { body: { phone: s.phone, pin } });
    assert.equal((await signIn(s.pin)).status, 401);
    assert.equal((await signIn('730194')).status, 200);
  });

  test('"Delete account" looks destructive; after it, the way back is the sign-in', async () => {
    const s = await signUp(t);
    const h = await signInHere(s);
    assert.match(String((await open(h.cookie)).body), /<button type="submit" class="danger">Delete account</);
    const deleted = await post(h, 'delete', { pin: s.pin, confirmation: 'DELETE MY ACCOUNT' });
    assert.match(String(deleted.body), /<a href="\/authorize\/account">Sign in<\/a>/);
  });

  test('malformed or unknown ids and values are the page again with the reason, never a 500', async () => {
    const s = await signUp(t);
    const h = await signInHere(s);
    for (const [path, fields] of [
      ['session', { session: 'x' }],
      ['session', { session: '' }],
      ['app', { client_id: '' }],
      ['passkey/rename', { passkey: 'x', name: 'Phone' }],
      ['passkey/remove', { passkey: '------------------------------------' }],
    ] as const) {
      const answer = await post(h, path, fields);
      assert.equal(answer.status, 404, `${path}: ${answer.status}`);
      assert.match(String(answer.body), /That is no longer there\./);
    }
    assert.equal(
      (await post(h, 'profile', { name: 'x'.repeat(101), handle: s.handle, language: '' })).status,
      400,
    );
    assert.equal((await post(h, 'passkey', { response: '{"not":"webauthn"}' })).status, 400);
    assert.equal((await post(h, 'passkey', { response: 'not json' })).status, 400);
  });

  test('the sign-in page the account page shows has no consent and gives out no code', async () => {
    const s = await signUp(t);
    const h = await signInHere(s);
    assert.doesNotMatch(h.location, /code=/);
    const codes = await t.c.db.query('SELECT 1 FROM authorization_codes WHERE user_id = $1', [s.user.id]);
    assert.equal(codes.length, 0);
  });
});
