import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { createTestApp, type TestApp, uniquePhone } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { CaptchaVerifier } from '../helpers/captcha-verifier.ts';
import { freePort } from '../helpers/free-port.ts';
import { ADMIN_TOKEN, authorizationParams, authorizeUrl, pkce, registerClient } from '../helpers/oauth.ts';

// The SMS defence on the hosted sign-up page: when a send needs a solved challenge, the page solves it in the
// browser with its own script (the page's policy allows that script and no other) and sends the form again;
// without JavaScript it says what is needed.

describe('the hosted sign-up page solves the SMS defence’s challenge', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  before(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({
      env: { ADMIN_TOKEN, BASE_URL: base, CHALLENGE_MODE: 'always', CHALLENGE_MAX_NUMBER: '20000' },
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test('in Chromium: the phone form goes on to the code page after the page proved the work', async () => {
    const client = await registerClient(t);
    const params = authorizationParams(client.client_id, pkce().challenge, { prompt: 'create' });
    const page = await browser.newPage();
    const blocked: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') blocked.push(m.text());
    });
    try {
      await page.goto(`${base}${authorizeUrl(params)}`);
      const phone = uniquePhone();
      await page.getByLabel('Phone number').fill(phone);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Code').waitFor({ timeout: 30_000 });
      assert.match(t.sms.lastCode(phone), /^\d{6}$/, 'the code was sent once the challenge was solved');
      assert.deepEqual(blocked, [], 'the policy let the script run');
    } finally {
      await page.close();
    }
  });

  test('without JavaScript the page says what is needed; the script is served from this origin', async () => {
    const client = await registerClient(t);
    const params = authorizationParams(client.client_id, pkce().challenge, { prompt: 'create' });
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${base}${authorizeUrl(params)}`);
      await page.getByLabel('Phone number').fill(uniquePhone());
      const answer = page.waitForResponse((r) => r.url().endsWith('/authorize/signup/send'));
      await page.getByRole('button', { name: 'Continue' }).click();
      const headers = (await answer).headers();
      assert.match(headers['content-security-policy'], /script-src 'self'/);
      assert.match(await page.content(), /This check needs JavaScript/);
    } finally {
      await context.close();
    }
    const script = await fetch(`${base}/authorize/assets/challenge.js`);
    assert.equal(script.status, 200);
    assert.match(script.headers.get('content-type') ?? '', /javascript/);
    assert.match(await script.text(), /crypto\.subtle\.digest\('SHA-256'/);
  });
});

describe('the hosted sign-up page shows the operator’s hosted CAPTCHA instead', () => {
  const vendor = new CaptchaVerifier('turnstile', 'widget-secret-0123456789', 'widget-site-key');
  let t: TestApp;
  let base: string;
  let browser: Browser;
  before(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({
      env: {
        ADMIN_TOKEN,
        BASE_URL: base,
        CHALLENGE_MODE: 'always',
        CAPTCHA_PROVIDER: 'turnstile',
        CAPTCHA_SECRET: vendor.secret,
        CAPTCHA_SITE_KEY: vendor.siteKey,
        CAPTCHA_VERIFY_URL: await vendor.start(),
      },
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await vendor.close();
  });

  test('in Chromium: the page’s policy lets the vendor’s widget run; its token goes with the form', async () => {
    const client = await registerClient(t);
    const params = authorizationParams(client.client_id, pkce().challenge, { prompt: 'create' });
    const page = await browser.newPage();
    const blocked: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') blocked.push(m.text());
    });
    // The vendor's script, served here as the widget would behave: it puts its token in the form.
    const token = vendor.pass({ hostname: '127.0.0.1' }); // the page's host, as the vendor reports it
    await page.route('https://challenges.cloudflare.com/turnstile/v0/api.js', (route) =>
      route.fulfill({
        contentType: 'text/javascript',
        body: `for (const w of document.querySelectorAll('.cf-turnstile')) {
          if (w.dataset.sitekey !== ${JSON.stringify(vendor.siteKey)}) continue;
          const input = document.createElement('input');
          input.type = 'hidden'; input.name = 'cf-turnstile-response'; input.value = ${JSON.stringify(token)};
          w.append(input);
        }`,
      }),
    );
    try {
      await page.goto(`${base}${authorizeUrl(params)}`);
      const phone = uniquePhone();
      await page.getByLabel('Phone number').fill(phone);
      const answer = page.waitForResponse((r) => r.url().endsWith('/authorize/signup/send'));
      await page.getByRole('button', { name: 'Continue' }).click();
      const policy = (await answer).headers()['content-security-policy'];
      assert.match(policy, /script-src https:\/\/challenges\.cloudflare\.com;/);
      assert.match(policy, /frame-src https:\/\/challenges\.cloudflare\.com;/);
      assert.doesNotMatch(policy, /script-src[^;]*'self'/, `no other script is allowed: ${policy}`);
      await page.locator('input[name="cf-turnstile-response"]').waitFor({ state: 'attached' });
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Code').waitFor();
      assert.match(t.sms.lastCode(phone), /^\d{6}$/, 'the code was sent once the CAPTCHA was passed');
      assert.equal(vendor.calls.at(-1)?.form.response, token);
      assert.deepEqual(blocked, [], 'the policy let the widget run');
    } finally {
      await page.close();
    }
  });
});
