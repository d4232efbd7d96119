import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { translate } from '../../src/i18n/languages.ts';
import {
  type Answer,
  createTestApp,
  type SignedUp,
  signUp,
  type TestApp,
  uniquePhone,
} from '../helpers/app.ts';
import { SoftAuthenticator } from '../helpers/authenticator.ts';
import {
  ADMIN_TOKEN,
  authorizationParams,
  exchangeCode,
  pageField,
  pkce,
  postPageForm,
  registerClient,
  signInForm,
} from '../helpers/oauth.ts';

// "Forgot PIN?" on the hosted pages over plain HTTP (every step is a form that needs no JavaScript): the phone,
// the code (or a recovery code instead), the new PIN, and back into the authorization.

const NEW_PIN = '739164';

describe('hosted pages: Forgot PIN?', () => {
  let t: TestApp;
  let clientId: string;
  before(async () => {
    t = await createTestApp({
      env: { ADMIN_TOKEN, RATE_LIMITS: 'signin_address=1000/900,signin_phone=1000/900' },
    });
    clientId = (await registerClient(t, { token_endpoint_auth_method: 'none' })).client_id;
  });
  after(() => t.close());

  const get = (path: string, csrf: string) =>
    t.request('GET', path, { headers: { cookie: `callsign_csrf=${csrf}` } });
  const hrefOf = (page: Answer, text: string) =>
    new RegExp(`<a href="([^"]+)">${text}</a>`)
      .exec(String(page.body))?.[1]
      ?.replaceAll('&amp;', '&') as string;

  /** From the sign-in page's "Forgot PIN?" to the code page of this phone. */
  async function toTheCode(phone: string) {
    const { verifier, challenge } = pkce();
    const { page, csrf } = await signInForm(t, authorizationParams(clientId, challenge));
    const resetPage = await get(hrefOf(page, 'Forgot PIN\\?'), csrf);
    assert.equal(resetPage.status, 200);
    assert.match(String(resetPage.body), /<input type="hidden" name="purpose" value="pin_reset">/);
    const codePage = await postPageForm(t, '/authorize/signup/send', csrf, {
      state: pageField(resetPage),
      phone,
      purpose: 'pin_reset',
    });
    return { codePage, csrf, verifier };
  }

  const idTokenAfter = async (back: Answer, verifier: string) => {
    assert.equal(back.status, 302, String(back.body));
    const code = new URL(String(back.headers.location)).searchParams.get('code') as string;
    return decodeJwt((await exchangeCode(t, clientId, code, verifier)).body.id_token);
  };

  /** "Continue" on the page that says what the reset removed, with the single sign-on the reset started. */
  const continueAfter = (removedPage: Answer, csrf: string, withSso = true) => {
    const sso = /callsign_sso=([^;]+)/.exec(String(removedPage.headers['set-cookie']))?.[1] as string;
    return postPageForm(
      t,
      '/authorize/reset/continue',
      csrf,
      { state: pageField(removedPage) },
      withSso ? `; callsign_sso=${sso}` : '',
    );
  };

  const signsIn = async (s: SignedUp, pin: string) =>
    (await t.request('POST', '/auth/signin', { body: { phone: s.phone, pin } })).status;

  test('the number typed stays: after a refused PIN, on "Forgot PIN?", and back from the code by "Change number"', async () => {
    const s = await signUp(t);
    const { state, csrf } = await signInForm(t, authorizationParams(clientId, pkce().challenge));
    const refused = await postPageForm(t, '/authorize/signin', csrf, {
      state,
      phone: s.phone,
      pin: '000000',
    });
    assert.equal(refused.status, 401);
    const resetPage = await get(hrefOf(refused, 'Forgot PIN\\?'), csrf);
    assert.match(String(resetPage.body), new RegExp(`id="phone"[^>]* value="\\${s.phone}"`));
    const atCode = await toTheCode(s.phone);
    const back = await get(hrefOf(atCode.codePage, 'Change number'), atCode.csrf);
    assert.equal(back.status, 200);
    assert.match(String(back.body), new RegExp(`id="phone"[^>]* value="\\${s.phone}"`));
  });

  test('"Forgot PIN?" with a number that has no account says so, not "wrong PIN"', async () => {
    const { codePage } = await toTheCode(uniquePhone());
    assert.equal(codePage.status, 404);
    assert.match(String(codePage.body), /No account uses this phone number\./);
    assert.doesNotMatch(String(codePage.body), /Wrong phone number or PIN/);
  });

  test('phone, code, new PIN: signed in and back at the client; the old PIN and sessions are gone', async () => {
    const s = await signUp(t);
    const { codePage, csrf, verifier } = await toTheCode(s.phone);
    assert.equal(codePage.status, 200, String(codePage.body));
    assert.doesNotMatch(String(codePage.body), /Use a recovery code instead/, 'the account has none');
    const pinPage = await postPageForm(t, '/authorize/signup/verify', csrf, {
      state: pageField(codePage),
      code: t.sms.lastCode(s.phone),
    });
    assert.match(String(pinPage.body), /<label for="pin">New PIN<\/label>/);
    assert.ok(String(pinPage.body).includes(translate('en', 'auth.pin_rules')));
    const weak = await postPageForm(t, '/authorize/reset/pin', csrf, {
      state: pageField(pinPage),
      pin: '1111',
    });
    assert.equal(weak.status, 400);
    assert.ok(String(weak.body).includes(translate('en', 'error.pin_weak')));
    const back = await postPageForm(t, '/authorize/reset/pin', csrf, {
      state: pageField(pinPage),
      pin: NEW_PIN,
    });
    const claims = await idTokenAfter(back, verifier);
    assert.deepEqual([claims.sub, claims.amr], [s.user.id, ['otp', 'sms']]);
    assert.equal(await signsIn(s, s.pin), 401);
    assert.equal(await signsIn(s, NEW_PIN), 200);
    assert.equal((await t.request('GET', '/users/me', { token: s.access_token })).status, 401);
    // The temp token is spent: the same form again starts nothing.
    assert.equal(
      (await postPageForm(t, '/authorize/reset/pin', csrf, { state: pageField(pinPage), pin: NEW_PIN }))
        .status,
      401,
    );
  });

  test('with recovery codes, "Use a recovery code instead" resets the PIN without the code', async () => {
    const s = await signUp(t);
    const made = await t.request('POST', '/users/me/recovery-codes', {
      token: s.access_token,
      body: { pin: s.pin },
    });
    const [first] = made.body.data.codes as string[];
    const { codePage, csrf, verifier } = await toTheCode(s.phone);
    const recoveryPage = await get(hrefOf(codePage, 'Use a recovery code instead'), csrf);
    assert.equal(recoveryPage.status, 200);
    const state = pageField(recoveryPage);
    const wrong = await postPageForm(t, '/authorize/reset/recovery', csrf, {
      state,
      recovery_code: 'AAAAA-AAAAA',
      pin: NEW_PIN,
    });
    assert.equal(wrong.status, 401);
    assert.ok(String(wrong.body).includes(translate('en', 'error.recovery_code')));
    const removed = await postPageForm(t, '/authorize/reset/recovery', csrf, {
      state,
      recovery_code: String(first),
      pin: NEW_PIN,
    });
    // The reset ended the set its code came from, and says so before going on.
    assert.equal(removed.status, 200, String(removed.body));
    assert.match(String(removed.body), /<h1[^>]*>Your new PIN is set<\/h1>/);
    assert.ok(String(removed.body).includes(translate('en', 'reset.removed_recovery_codes')));
    assert.ok(!String(removed.body).includes(translate('en', 'reset.removed_passkeys')));
    const back = await continueAfter(removed, csrf);
    const claims = await idTokenAfter(back, verifier);
    assert.deepEqual([claims.sub, claims.amr], [s.user.id, ['otp']]);
    assert.equal(await signsIn(s, NEW_PIN), 200);
  });

  test('a reset by code that removed passkeys says so, then goes on only for the person signed in here', async () => {
    const s = await signUp(t);
    const options = await t.request('POST', '/passkeys/registration/options', { token: s.access_token });
    const key = new SoftAuthenticator('http://callsign.test');
    const kept = await t.request('POST', '/passkeys/registration', {
      token: s.access_token,
      body: { response: key.create(options.body.data) },
    });
    assert.equal(kept.status, 200, JSON.stringify(kept.body));
    const { codePage, csrf, verifier } = await toTheCode(s.phone);
    const pinPage = await postPageForm(t, '/authorize/signup/verify', csrf, {
      state: pageField(codePage),
      code: t.sms.lastCode(s.phone),
    });
    const removed = await postPageForm(t, '/authorize/reset/pin', csrf, {
      state: pageField(pinPage),
      pin: NEW_PIN,
    });
    assert.equal(removed.status, 200, String(removed.body));
    assert.ok(String(removed.body).includes(translate('en', 'reset.removed_passkeys')));
    assert.ok(!String(removed.body).includes(translate('en', 'reset.removed_recovery_codes')));
    assert.equal((await continueAfter(removed, csrf, false)).status, 400, 'not without the single sign-on');
    const claims = await idTokenAfter(await continueAfter(removed, csrf), verifier);
    assert.equal(claims.sub, s.user.id);
  });

  test('a locked account is told how many minutes remain, beside "Forgot PIN?"', async () => {
    const s = await signUp(t);
    const { state, csrf } = await signInForm(t, authorizationParams(clientId, pkce().challenge));
    let page: Answer | undefined;
    for (let i = 0; i < 10; i++)
      page = await postPageForm(t, '/authorize/signin', csrf, { state, phone: s.phone, pin: '918273' });
    assert.equal(page?.status, 403);
    assert.ok(String(page?.body).includes(translate('en', 'error.locked_wait', { minutes: 60 })));
    assert.match(String(page?.body), />Forgot PIN\?<\/a>/);
  });

  test('a number without an account is told so on the reset page, and gets no code', async () => {
    const phone = uniquePhone();
    const { codePage } = await toTheCode(phone);
    assert.equal(codePage.status, 404);
    assert.match(String(codePage.body), /value="pin_reset"/, 'the reset page again');
    assert.deepEqual(t.sms.messagesTo(phone), []);
  });
});
