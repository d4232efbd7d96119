import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { LANGUAGES } from '../../src/i18n/languages.ts';
import { createTestApp, signUp, type TestApp, uniqueIp } from '../helpers/app.ts';
import {
  ADMIN_TOKEN,
  authorizationParams,
  authorizeUrl,
  pkce,
  postSignIn,
  registerClient,
  signInForm,
} from '../helpers/oauth.ts';

// A hosted page's language: the person's pick in the page's menu, then the client's ui_locales, then the
// account's language, then Accept-Language, then DEFAULT_LANGUAGE; right to left for Arabic; the same input
// names in every language.

const h1 = (html: unknown) => /<h1>([^<]*)<\/h1>/.exec(String(html))?.[1];
const htmlTag = (html: unknown) => /<html [^>]*>/.exec(String(html))?.[0];
const form = (cookie: string) => ({ 'content-type': 'application/x-www-form-urlencoded', cookie });

describe('the language of the hosted pages', () => {
  let t: TestApp;
  let clientId: string;
  const params = (extra: Record<string, string> = {}) =>
    authorizationParams(clientId, pkce().challenge, extra);

  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN } });
    clientId = (await registerClient(t)).client_id;
  });
  after(() => t?.close());

  test('ui_locales picks the first language spoken here; Arabic pages run right to left', async () => {
    const page = await t.request('GET', authorizeUrl(params({ ui_locales: 'de-CH ar fr' })));
    assert.equal(page.status, 200);
    assert.equal(htmlTag(page.body), '<html lang="ar" dir="rtl">');
    assert.equal(h1(page.body), 'تسجيل الدخول');
    const french = await t.request('GET', authorizeUrl(params({ ui_locales: 'fr-CA' })), {
      headers: { 'accept-language': 'hi-IN' },
    });
    assert.equal(htmlTag(french.body), '<html lang="fr" dir="ltr">', 'ui_locales before Accept-Language');
  });

  test('Accept-Language, else DEFAULT_LANGUAGE; the phone field starts on the browser’s region', async () => {
    const hindi = await t.request('GET', authorizeUrl(params()), {
      headers: { 'accept-language': 'hi-IN,en;q=0.5' },
    });
    assert.equal(htmlTag(hindi.body), '<html lang="hi" dir="ltr">');
    assert.equal(h1(hindi.body), 'साइन इन करें');
    assert.match(String(hindi.body), /<option value="IN" selected[ >]/);
    const none = await t.request('GET', authorizeUrl(params()), { headers: { 'accept-language': 'de, nl' } });
    assert.equal(htmlTag(none.body), '<html lang="en" dir="ltr">');
    assert.doesNotMatch(
      String(none.body),
      /<option value="[A-Z]{2}" selected[ >]/,
      'no region, no DEFAULT_COUNTRY',
    );
    const other = await createTestApp({
      env: { DEFAULT_LANGUAGE: 'sw', DEFAULT_COUNTRY: 'ke', ADMIN_TOKEN },
    });
    try {
      const id = (await registerClient(other)).client_id;
      const page = await other.request('GET', authorizeUrl(authorizationParams(id, pkce().challenge)));
      assert.equal(h1(page.body), 'Ingia');
      assert.match(String(page.body), /<option value="KE" selected[ >]/);
    } finally {
      await other.close();
    }
  });

  test('the menu’s pick is kept in a cookie, outranks ui_locales, and returns to the same page', async () => {
    const url = authorizeUrl(params({ ui_locales: 'ar' }));
    const picked = await t.request('GET', `/language?${new URLSearchParams({ lang: 'tr', back: url })}`);
    assert.equal(picked.status, 303);
    assert.equal(picked.headers.location, url);
    const cookie = String(picked.headers['set-cookie']);
    assert.match(cookie, /^callsign_lang=tr; Max-Age=31536000; Path=\/; HttpOnly; SameSite=Lax/);
    const again = await t.request('GET', url, { headers: { cookie: 'callsign_lang=tr' } });
    assert.equal(htmlTag(again.body), '<html lang="tr" dir="ltr">');
    // The menu itself: a GET form back to the page, every language named in its own words.
    assert.match(
      String(again.body),
      /<form method="get" action="\/language"><input type="hidden" name="back" value="\/authorize\/signin\?state=/,
    );
    assert.match(String(again.body), /<option value="bn" lang="bn">বাংলা<\/option>/);
  });

  test('the menu returns only to this service: a back that would leave it falls back to the menu’s own page', async () => {
    for (const back of [
      '//evil.example/x',
      'https://evil.example/',
      '/\\evil.example',
      'javascript:alert(1)',
      '/a\nb',
      // each of these normalises to //evil.example...: judged after normalisation, not as typed
      '/.//evil.example',
      '/a/..//evil.example/x',
      '/%2e//evil.example',
      '/%2E%2e//evil.example',
      '/x/%2e%2e/%2e//evil.example',
    ]) {
      const res = await t.request('GET', `/language?${new URLSearchParams({ lang: 'fr', back })}`);
      assert.equal(res.status, 200, back);
      assert.equal(res.headers.location, undefined, back);
      assert.match(String(res.headers['set-cookie']), /^callsign_lang=fr;/, back);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assert.match(String(res.body), /<html lang="fr"/, back);
    }
    const normalised = await t.request('GET', '/language?lang=fr&back=/a/./b/../authorize%3Fx%3D1');
    assert.equal(normalised.status, 303);
    assert.equal(normalised.headers.location, '/a/authorize?x=1');
    const unknown = await t.request('GET', '/language?lang=xx&back=/');
    assert.equal(unknown.status, 400);
    const missing = await t.request('GET', '/language');
    assert.equal(missing.status, 400);
    assert.match(String(missing.headers['content-type']), /^text\/html/);
  });

  test('a signed-in account’s own language comes before the browser’s', async () => {
    const thirdParty = await registerClient(t, { first_party: false, client_name: 'Duka' });
    const s = await signUp(t);
    await t.request('PATCH', '/users/me', { token: s.access_token, body: { language: 'sw' } });
    const p = authorizationParams(thirdParty.client_id, pkce().challenge);
    const { state, csrf } = await signInForm(t, p);
    const consent = await postSignIn(t, { state, csrf }, s);
    assert.equal(consent.status, 200);
    assert.equal(h1(consent.body), 'Ruhusu ufikiaji?');
    assert.match(String(consent.body), /Duka ingependa:/);
  });

  test('every language carries the same input names, and the English labels stay', async () => {
    const namesIn = async (lang: string) => {
      const page = await t.request('GET', authorizeUrl(params()), {
        headers: { cookie: `callsign_lang=${lang}` },
      });
      return [...String(page.body).matchAll(/<(?:input|select|button)[^>]* name="([^"]+)"/g)].map(
        (m) => m[1],
      );
    };
    const english = await namesIn('en');
    assert.deepEqual(english, [
      ...['state', 'csrf', 'country', 'phone', 'pin', 'platform_authenticator'],
      ...['state', 'csrf', 'response', 'back', 'lang'],
    ]);
    for (const lang of LANGUAGES) assert.deepEqual(await namesIn(lang), english, lang);
    const page = String((await t.request('GET', authorizeUrl(params()))).body);
    for (const label of [
      '<label for="phone">Phone number</label>',
      '<label for="pin">PIN</label>',
      '>Continue</button>',
    ])
      assert.ok(page.includes(label), label);
  });

  test('discovery lists the page languages', async () => {
    const doc = await t.request('GET', '/.well-known/openid-configuration');
    assert.deepEqual(doc.body.ui_locales_supported, LANGUAGES);
  });

  test('a sign-up on the page sends the code in the page’s language', async () => {
    const { state, csrf } = await signInForm(t, params({ ui_locales: 'id', prompt: 'create' }));
    const phone = '+1 650 555 0142';
    const sent = await t.request('POST', '/authorize/signup/send', {
      body: new URLSearchParams({ state, csrf, phone }).toString(),
      headers: form(`callsign_csrf=${csrf}`),
      ip: uniqueIp(),
    });
    assert.equal(sent.status, 200);
    assert.equal(h1(sent.body), 'Masukkan kode');
    assert.match(t.sms.messagesTo('+16505550142')[0], /^Kode verifikasi Anda adalah \d{6}/);
  });
});
