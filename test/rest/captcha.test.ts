import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/config.ts';
import { createTestApp, signUp, type TestApp, uniqueIp, uniquePhone } from '../helpers/app.ts';
import { CaptchaVerifier } from '../helpers/captcha-verifier.ts';

// A hosted CAPTCHA (Cloudflare Turnstile, hCaptcha) in the proof-of-work challenge's place: a send that needs
// proof of a person carries `captcha_token`, checked with the vendor's siteverify (a local server that
// checks the request as the vendor documents it), used once.

const SECRET = '0x4AAAAAAA-secret-of-the-widget-0123456789';
const SITE_KEY = '0x4AAAAAAA-site-key';
const ADMIN_TOKEN = 'admin-token-for-captcha-tests-0123456789';

const send = (t: TestApp, phone: string, body: Record<string, string> = {}, ip = uniqueIp()) =>
  t.request('POST', '/auth/otp/send', { body: { phone, purpose: 'signup', ...body }, ip });

describe('CAPTCHA_PROVIDER=turnstile', () => {
  const vendor = new CaptchaVerifier('turnstile', SECRET, SITE_KEY);
  let t: TestApp;
  before(async () => {
    const verifyUrl = await vendor.start();
    t = await createTestApp({
      env: {
        CHALLENGE_MODE: 'always',
        CAPTCHA_PROVIDER: 'turnstile',
        CAPTCHA_SECRET: SECRET,
        CAPTCHA_SITE_KEY: SITE_KEY,
        CAPTCHA_VERIFY_URL: verifyUrl,
      },
    });
  });
  after(async () => {
    await t.close();
    await vendor.close();
  });

  test('a send without a token is CHALLENGE_REQUIRED naming the widget; GET /auth/challenge names it too', async () => {
    const widget = { provider: 'turnstile', site_key: SITE_KEY };
    const refused = await send(t, uniquePhone());
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'CHALLENGE_REQUIRED');
    assert.deepEqual(refused.body.error.details.captcha, widget);
    assert.equal(refused.body.error.details.challenge, undefined, 'no proof-of-work challenge instead');
    const asked = await t.request('GET', '/auth/challenge');
    assert.deepEqual(asked.body.data, widget);
  });

  test('a passed token lets the send through, checked with the vendor as it documents; once only', async () => {
    const phone = uniquePhone();
    const ip = uniqueIp();
    const token = vendor.pass();
    const calls = vendor.calls.length;
    const sent = await send(t, phone, { captcha_token: token }, ip);
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.match(t.sms.lastCode(phone), /^\d{6}$/);
    assert.deepEqual(vendor.calls.slice(calls), [
      {
        path: '/turnstile/v0/siteverify',
        contentType: 'application/x-www-form-urlencoded',
        form: { secret: SECRET, response: token, remoteip: ip },
      },
    ]);
    const again = await send(t, uniquePhone(), { captcha_token: token });
    assert.equal(again.body.error?.code, 'CHALLENGE_REQUIRED', 'a token is used once');
    assert.equal(vendor.calls.length, calls + 1, 'a token used before is refused without asking the vendor');
    const forged = await send(t, uniquePhone(), { captcha_token: 'made-up-token' });
    assert.equal(forged.status, 403);
    assert.equal(forged.body.error.code, 'CHALLENGE_REQUIRED', 'a token the vendor refuses');
    assert.ok(
      t.logs.every((line) => !line.includes(SECRET)),
      'the secret is never logged',
    );
  });

  test('a token made on another site, or for another action, is not passed; no action at all is', async () => {
    for (const on of [{ hostname: 'evil.example' }, { action: 'login' }]) {
      const refused = await send(t, uniquePhone(), { captcha_token: vendor.pass(on) });
      assert.equal(refused.status, 403, JSON.stringify(on));
      assert.equal(refused.body.error.code, 'CHALLENGE_REQUIRED', JSON.stringify(on));
      assert.match(refused.body.error.message, /not passed/);
    }
    assert.equal(
      (await send(t, uniquePhone(), { captcha_token: vendor.pass({ action: null }) })).status,
      200,
    );
    // CAPTCHA_HOSTNAMES names the sites whose widgets count (an app's own web page beside the hosted one).
    const other = await createTestApp({
      env: {
        CHALLENGE_MODE: 'always',
        CAPTCHA_PROVIDER: 'turnstile',
        CAPTCHA_SECRET: SECRET,
        CAPTCHA_SITE_KEY: SITE_KEY,
        CAPTCHA_VERIFY_URL: t.c.config.captcha?.verifyUrl ?? '',
        CAPTCHA_HOSTNAMES: 'app.example, Callsign.test',
      },
    });
    try {
      for (const hostname of ['app.example', 'callsign.test'])
        assert.equal(
          (await send(other, uniquePhone(), { captcha_token: vendor.pass({ hostname }) })).status,
          200,
        );
      assert.equal(
        (await send(other, uniquePhone(), { captcha_token: vendor.pass({ hostname: 'x.example' }) })).status,
        403,
      );
    } finally {
      await other.close();
    }
  });

  test('when the vendor cannot answer, no code goes: SERVICE_UNAVAILABLE', async () => {
    const phone = uniquePhone();
    vendor.status = 500;
    try {
      const res = await send(t, phone, { captcha_token: vendor.pass() });
      assert.equal(res.status, 503);
      assert.equal(res.body.error.code, 'SERVICE_UNAVAILABLE');
      assert.deepEqual(t.sms.messagesTo(phone), []);
    } finally {
      vendor.status = 200;
    }
  });
});

describe('CAPTCHA_PROVIDER=hcaptcha', () => {
  const vendor = new CaptchaVerifier('hcaptcha', SECRET, SITE_KEY);
  let t: TestApp;
  before(async () => {
    const verifyUrl = await vendor.start();
    t = await createTestApp({
      env: {
        ADMIN_TOKEN,
        CAPTCHA_PROVIDER: 'hcaptcha',
        CAPTCHA_SECRET: SECRET,
        CAPTCHA_SITE_KEY: SITE_KEY,
        CAPTCHA_VERIFY_URL: verifyUrl,
      },
    });
  });
  after(async () => {
    await t.close();
    await vendor.close();
  });

  test('hCaptcha is also told the site key; a phone change carries the token the same way', async () => {
    const s = await signUp(t);
    // With the country's breaker held open, its sends need proof of a person.
    await t.request('POST', '/admin/v1/sms/countries/US/breaker', {
      token: ADMIN_TOKEN,
      body: { state: 'open' },
    });
    const phone = uniquePhone();
    const ip = uniqueIp();
    const change = (body: Record<string, string>) =>
      t.request('POST', '/users/me/phone', { token: s.access_token, body: { phone, ...body }, ip });
    const refused = await change({});
    assert.equal(refused.body.error?.code, 'CHALLENGE_REQUIRED');
    assert.deepEqual(refused.body.error.details.captcha, { provider: 'hcaptcha', site_key: SITE_KEY });
    const token = vendor.pass();
    const started = await change({ captcha_token: token });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    assert.deepEqual(vendor.calls.at(-1)?.form, {
      secret: SECRET,
      response: token,
      remoteip: ip,
      sitekey: SITE_KEY,
    });
    assert.match(t.sms.lastCode(phone), /^\d{6}$/);
  });
});

test('a CAPTCHA_PROVIDER without its keys, or one not known, refuses to start, naming each', () => {
  assert.throws(
    () => loadConfig({ CAPTCHA_PROVIDER: 'turnstile' }),
    (err: unknown) =>
      err instanceof ConfigError &&
      err.problems.some((p) => p.startsWith('CAPTCHA_SECRET is required')) &&
      err.problems.some((p) => p.startsWith('CAPTCHA_SITE_KEY is required')),
  );
  assert.throws(
    () => loadConfig({ CAPTCHA_PROVIDER: 'recaptcha', CAPTCHA_SECRET: 's', CAPTCHA_SITE_KEY: 'k' }),
    (err: unknown) => err instanceof ConfigError && err.problems.some((p) => p.includes('CAPTCHA_PROVIDER')),
  );
  const config = loadConfig({ CAPTCHA_PROVIDER: 'hcaptcha', CAPTCHA_SECRET: 's', CAPTCHA_SITE_KEY: 'k' });
  assert.equal(config.captcha?.verifyUrl, 'https://api.hcaptcha.com/siteverify', 'the vendor’s own endpoint');
});
