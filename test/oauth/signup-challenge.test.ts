import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { createTestApp, type TestApp, uniquePhone } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
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
