import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { signInPage } from '../../src/http/pages/authorize-pages.ts';
import { viewIn } from '../../src/http/pages/view.ts';
import { translate } from '../../src/i18n/languages.ts';
import type { ClientRow } from '../../src/storage/repositories/clients.ts';
import { createTestApp, signUp, type TestApp, uniquePhone } from '../helpers/app.ts';
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

// The hosted sign-in page's "Text me a code instead", over plain HTTP (no JavaScript is needed for it).

describe('hosted pages: sign in with a code instead of the PIN', () => {
  let t: TestApp;
  let clientId: string;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN, SIGNIN_METHODS: 'pin,passkey,code' } });
    clientId = (await registerClient(t, { token_endpoint_auth_method: 'none' })).client_id;
  });
  after(() => t.close());

  test('the PIN form’s second button sends a code; the code signs in and the ID token says otp and sms', async () => {
    const s = await signUp(t);
    const { verifier, challenge } = pkce();
    const { page, state, csrf } = await signInForm(t, authorizationParams(clientId, challenge));
    assert.match(
      String(page.body),
      /<button type="submit" class="secondary" formaction="\/authorize\/signup\/send" formnovalidate name="purpose" value="signin">Text me a code instead<\/button>/,
    );
    // The form as a browser posts it from that button: the phone, an empty PIN, the button's purpose.
    const codePage = await postPageForm(t, '/authorize/signup/send', csrf, {
      state,
      phone: s.phone,
      pin: '',
      purpose: 'signin',
    });
    assert.equal(codePage.status, 200, String(codePage.body));
    assert.match(String(codePage.body), /name="code"/);
    const code = t.sms.lastCode(s.phone);
    const back = await postPageForm(t, '/authorize/signup/verify', csrf, {
      state: pageField(codePage),
      code,
    });
    assert.equal(back.status, 302, String(back.body));
    assert.match(String(back.headers['set-cookie']), /callsign_sso=/);
    const issued = new URL(String(back.headers.location)).searchParams.get('code') as string;
    const tokens = await exchangeCode(t, clientId, issued, verifier);
    const claims = decodeJwt(tokens.body.id_token);
    assert.deepEqual([claims.sub, claims.amr], [s.user.id, ['otp', 'sms']]);
  });

  test('a number without an account is told so on the sign-in page, and gets no code', async () => {
    const phone = uniquePhone();
    const { state, csrf } = await signInForm(t, authorizationParams(clientId, pkce().challenge));
    const refused = await postPageForm(t, '/authorize/signup/send', csrf, {
      state,
      phone,
      purpose: 'signin',
    });
    assert.equal(refused.status, 404);
    assert.match(String(refused.body), /name="pin"/, 'the sign-in page again');
    assert.deepEqual(t.sms.messagesTo(phone), []);
  });
});

describe('hosted pages where SIGNIN_METHODS leaves codes off', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN } });
  });
  after(() => t.close());

  test('the sign-in page offers no code, and a post asking for one is refused', async () => {
    const s = await signUp(t);
    const client = await registerClient(t, { token_endpoint_auth_method: 'none' });
    const { page, state, csrf } = await signInForm(
      t,
      authorizationParams(client.client_id, pkce().challenge),
    );
    assert.doesNotMatch(String(page.body), /value="signin"/);
    const refused = await postPageForm(t, '/authorize/signup/send', csrf, {
      state,
      phone: s.phone,
      purpose: 'signin',
    });
    assert.equal(refused.status, 403);
    assert.equal(t.sms.messagesTo(s.phone).length, 1, 'only the sign-up code');
  });
});

describe('"Text me a code instead" names the channel the code goes by', () => {
  test('SMS, WhatsApp and a call, in the page’s language', () => {
    const client = {
      client_name: 'Duka',
      logo_image: null,
      brand_color: null,
      client_uri: null,
    } as ClientRow;
    const named = (lang: 'en' | 'hi', codeChannel: 'sms' | 'whatsapp' | 'voice') =>
      signInPage({ client, state: 's', csrf: 'c', view: viewIn(lang), codeChannel });
    assert.match(named('en', 'sms'), />Text me a code instead<\/button>/);
    assert.match(named('en', 'whatsapp'), />Send me a code on WhatsApp instead<\/button>/);
    assert.match(named('en', 'voice'), />Call me with a code instead<\/button>/);
    assert.ok(named('hi', 'whatsapp').includes(translate('hi', 'auth.code_instead_whatsapp')));
  });
});
