import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, signUp, type TestApp, uniqueIp, uniquePhone } from '../helpers/app.ts';
import { documentPhoto, initiate, submitForm, validFields } from '../helpers/kyc.ts';
import {
  ADMIN_TOKEN,
  authorizationParams,
  pkce,
  REDIRECT,
  registerClient,
  signInForm,
} from '../helpers/oauth.ts';

// The hosted forms fit phones and people: a number in its country's own form, the rules shown before they are
// broken, each error beside its field in the page's language, and the page's policy still strict.

const h1 = (html: unknown) => /<h1>([^<]*)<\/h1>/.exec(String(html))?.[1];
const formHeaders = (csrf: string, lang = 'en') => ({
  'content-type': 'application/x-www-form-urlencoded',
  cookie: `callsign_csrf=${csrf}; callsign_lang=${lang}`,
});

describe('the hosted forms', () => {
  let t: TestApp;
  let clientId: string;
  const params = (extra: Record<string, string> = {}) =>
    authorizationParams(clientId, pkce().challenge, extra);

  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN, RATE_LIMITS: 'verify_page_address=100000/60' } });
    clientId = (await registerClient(t)).client_id;
  });
  after(() => t?.close());

  /** The sign-up form on the page up to the PIN and handle step; answers its state and CSRF token. */
  async function atAccountStep(lang: string) {
    const { state, csrf } = await signInForm(t, params({ prompt: 'create' }));
    const phone = uniquePhone();
    const ip = uniqueIp();
    const post = (path: string, body: Record<string, string>, s: string) =>
      t.request('POST', path, {
        body: new URLSearchParams({ state: s, csrf, ...body }).toString(),
        headers: formHeaders(csrf, lang),
        ip,
      });
    const sent = await post('/authorize/signup/send', { phone }, state);
    const codeState = /name="state" value="([^"]+)"/.exec(String(sent.body))?.[1] as string;
    const verified = await post('/authorize/signup/verify', { code: t.sms.lastCode(phone) }, codeState);
    const accountState = /name="state" value="([^"]+)"/.exec(String(verified.body))?.[1] as string;
    return {
      page: verified,
      create: (body: Record<string, string>) => post('/authorize/signup/create', body, accountState),
    };
  }

  test('the PIN and handle rules are shown up front; a broken one is said beside its field', async () => {
    const step = await atAccountStep('es');
    assert.match(String(step.page.body), /<p class="hint" id="pin-hint">De 4 a 6 dígitos\./);
    assert.match(String(step.page.body), /<p class="hint" id="handle-hint">De 3 a 30 caracteres/);
    const weak = await step.create({ pin: '1234', handle: 'ana_maria' });
    assert.equal(weak.status, 400);
    const html = String(weak.body);
    assert.match(
      html,
      /<p class="field-error" id="pin-error" role="alert">Este PIN es demasiado fácil de adivinar\. Elige otro\.<\/p>/,
    );
    assert.match(
      html,
      /<input id="pin" name="pin" [^>]*aria-describedby="pin-hint pin-error" aria-invalid="true">/,
    );
    assert.doesNotMatch(html, /<p class="error"/, 'no error above the form when it is about one field');
    const short = await step.create({ pin: '12', handle: 'ana_maria' });
    assert.match(String(short.body), /id="pin-error" role="alert">Tu PIN debe tener de 4 a 6 dígitos\./);
    const handle = await step.create({ pin: '480715', handle: 'Ana' });
    assert.match(
      String(handle.body),
      /id="handle-error" role="alert">Tu nombre de usuario debe tener de 3 a 30/,
    );
    // Both broken: both said at once, each beside its field.
    const both = String((await step.create({ pin: '1234', handle: 'Ana' })).body);
    assert.match(both, /id="pin-error" role="alert">Este PIN es demasiado fácil de adivinar/);
    assert.match(both, /id="handle-error" role="alert">Tu nombre de usuario debe tener de 3 a 30/);
  });

  test('a wrong code is said beside the code field; the code field asks for one-time codes', async () => {
    const { state, csrf } = await signInForm(t, params({ prompt: 'create' }));
    const phone = uniquePhone();
    const ip = uniqueIp();
    const sent = await t.request('POST', '/authorize/signup/send', {
      body: new URLSearchParams({ state, csrf, phone }).toString(),
      headers: formHeaders(csrf, 'hi'),
      ip,
    });
    assert.match(
      String(sent.body),
      /<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code"/,
    );
    assert.match(
      String(sent.headers['content-security-policy']),
      /script-src 'self';/,
      'the WebOTP script may run',
    );
    const codeState = /name="state" value="([^"]+)"/.exec(String(sent.body))?.[1] as string;
    const wrong = await t.request('POST', '/authorize/signup/verify', {
      body: new URLSearchParams({ state: codeState, csrf, code: '000000' }).toString(),
      headers: formHeaders(csrf, 'hi'),
      ip,
    });
    assert.equal(wrong.status, 400);
    assert.match(String(wrong.body), /id="code-error" role="alert">वह कोड गलत है।/);
    assert.match(String(wrong.headers['content-security-policy']), /script-src 'self';/);
  });

  test('an account the operator locked is told to contact the service, not to wait out wrong PINs', async () => {
    const s = await signUp(t);
    const lock = await t.request('POST', `/admin/v1/users/${s.user.id}/lock`, { token: ADMIN_TOKEN });
    assert.equal(lock.status, 200);
    const { state, csrf } = await signInForm(t, params());
    const refused = await t.request('POST', '/authorize/signin', {
      body: new URLSearchParams({ state, csrf, phone: s.phone, pin: s.pin }).toString(),
      headers: formHeaders(csrf),
    });
    assert.equal(refused.status, 403);
    assert.match(
      String(refused.body),
      /This account is locked\. Contact the service’s support to have it unlocked\./,
    );
    assert.doesNotMatch(String(refused.body), /wrong PINs/);
  });

  test('codes refused by their limit say that too many went to the number, and when the next can', async () => {
    const { state, csrf } = await signInForm(t, params({ prompt: 'create' }));
    const phone = uniquePhone();
    const send = () =>
      t.request('POST', '/authorize/signup/send', {
        body: new URLSearchParams({ state, csrf, phone }).toString(),
        headers: formHeaders(csrf),
        ip: uniqueIp(),
      });
    let answer = await send();
    for (let i = 0; i < 10 && answer.status !== 429; i++) answer = await send();
    assert.equal(answer.status, 429);
    assert.match(
      String(answer.body),
      /Too many codes have been sent to this number\. The next one can be sent in \d+ minutes?\./,
    );
    assert.doesNotMatch(String(answer.body), /Too many attempts/);
  });

  test('a number in its country’s own form signs in with the country picked beside it', async () => {
    const s = await signUp(t);
    const national = `(${s.phone.slice(2, 5)}) ${s.phone.slice(5, 8)}-${s.phone.slice(8)}`;
    const { state, csrf } = await signInForm(t, params());
    const res = await t.request('POST', '/authorize/signin', {
      body: new URLSearchParams({ state, csrf, country: 'US', phone: national, pin: s.pin }).toString(),
      headers: formHeaders(csrf),
    });
    assert.equal(res.status, 302, String(res.body).slice(0, 200));
    assert.ok(String(res.headers.location).startsWith(REDIRECT));
    const again = await signInForm(t, params());
    const elsewhere = await t.request('POST', '/authorize/signin', {
      body: new URLSearchParams({
        ...again,
        page: '',
        country: 'GB',
        phone: national,
        pin: s.pin,
      }).toString(),
      headers: formHeaders(again.csrf),
    });
    assert.notEqual(elsewhere.status, 302, 'the same digits in another country are another number');
    assert.match(String(elsewhere.body), /<option value="GB" selected[ >]/, 'the picked country is kept');
  });

  test('the language menu shows the step a sign-up is at again; a stale link shows an error page', async () => {
    const step = await atAccountStep('en');
    const back = /name="back" value="([^"]+)"/.exec(String(step.page.body))?.[1] as string;
    assert.match(back, /^\/authorize\/resume\?state=/);
    const shown = await t.request('GET', back.replaceAll('&amp;', '&'), {
      headers: {
        cookie: `callsign_csrf=${/csrf" value="([^"]+)"/.exec(String(step.page.body))?.[1]}; callsign_lang=ar`,
      },
    });
    assert.equal(shown.status, 200);
    assert.equal(h1(shown.body), 'اختر رقم PIN واسم المستخدم');
    const stale = await t.request('GET', '/authorize/resume?state=nonsense', {
      headers: { cookie: 'callsign_csrf=x' },
    });
    assert.equal(stale.status, 400);
    assert.match(String(stale.body), /This sign-in has expired/);
  });

  test('the sealed state belongs to its browser: another one holding the URL gets the start page; logs mask it', async () => {
    const step = await atAccountStep('en');
    const back = (/name="back" value="([^"]+)"/.exec(String(step.page.body))?.[1] as string).replaceAll(
      '&amp;',
      '&',
    );
    const sealedState = new URLSearchParams(back.split('?')[1]).get('state') as string;
    for (const cookie of ['callsign_csrf=another-browser', undefined]) {
      const other = await t.request('GET', back, { headers: cookie ? { cookie } : {} });
      assert.equal(other.status, 200, String(cookie));
      assert.equal(h1(other.body), 'Sign in', 'the start of the same request, not the account step');
      assert.doesNotMatch(String(other.body), /name="handle"/);
      assert.ok(!String(other.body).includes(sealedState), 'a state of its own, not the one in the URL');
      if (!cookie)
        assert.match(String(other.headers['set-cookie']), /^callsign_csrf=/, 'a CSRF cookie of its own');
    }
    // Its own CSRF token beside the copied state does not finish the sign-up either.
    const forged = await t.request('POST', '/authorize/signup/create', {
      body: new URLSearchParams({
        state: sealedState,
        csrf: 'another-browser',
        pin: '482916',
        handle: 'taken_over',
      }).toString(),
      headers: formHeaders('another-browser'),
      ip: uniqueIp(),
    });
    assert.equal(forged.status, 400);
    assert.match(String(forged.body), /This sign-in has expired/);
    assert.equal(
      (await step.create({ pin: '482916', handle: `own_${Date.now() % 1e6}` })).status,
      302,
      'its own browser goes on',
    );
    // The request log holds neither the sealed state nor a way back.
    t.logs.length = 0;
    await t.request('GET', back, { headers: { cookie: 'callsign_csrf=x' } });
    await t.request('GET', `/language?${new URLSearchParams({ lang: 'fr', back })}`);
    const logged = t.logs.join('\n');
    assert.ok(!logged.includes(sealedState.slice(0, 40)), 'the state is masked');
    assert.ok(logged.includes('"url":"/authorize/resume?state=[redacted]"'));
    assert.ok(logged.includes('"url":"/language?lang=fr&back=[redacted]"'));
  });

  test('every hosted page loads only the service’s own stylesheet and scripts: nothing inline', async () => {
    const page = await t.request('GET', `/authorize?${new URLSearchParams(params())}`);
    const policy = String(page.headers['content-security-policy']);
    assert.match(policy, /style-src 'self';/);
    assert.match(policy, /script-src 'self';/, 'the phone field’s own grouping script');
    assert.doesNotMatch(policy, /unsafe-inline/);
    assert.doesNotMatch(String(page.body), /<style|style="/);
    const css = await t.request('GET', '/assets/callsign.css');
    assert.equal(css.status, 200);
    assert.match(String(css.headers['content-type']), /^text\/css/);
    assert.match(String(css.body), /prefers-color-scheme:dark/);
    assert.match(String(css.body), /min-height:44px/);
  });

  test('the verification page speaks the account’s language and says each error beside its field', async () => {
    const s = await signUp(t);
    await t.request('PATCH', '/users/me', { token: s.access_token, body: { language: 'fr' } });
    const path = await initiate(t, s.access_token);
    const form = await t.request('GET', path);
    assert.equal(h1(form.body), 'Vérifiez votre identité');
    assert.match(String(form.body), /<option value="DE">Allemagne<\/option>/);
    const young = await submitForm(t, path, validFields('2015-01-01'), [await documentPhoto()]);
    assert.equal(young.status, 400);
    assert.match(young.html, /id="birthday-error" role="alert">Vous devez avoir au moins 18 ans/);
    assert.match(young.html, /<option value="DE" selected[ >]/, 'what was chosen stays chosen');
    const none = await submitForm(t, path, validFields(), []);
    assert.match(none.html, /id="document-error" role="alert">Ajoutez une photo de votre document\./);
  });
});
