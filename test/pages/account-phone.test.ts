import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { translate } from '../../src/i18n/languages.ts';
import { createTestApp, events, signUp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { freePort } from '../helpers/free-port.ts';
import { ADMIN_TOKEN } from '../helpers/oauth.ts';
import { checkLook } from '../helpers/page-look.ts';

// The account page's phone change in Chromium, in English and Arabic: the new number, the SMS defence's
// challenge where the number's country asks for one (solved by the page's own script), then the code and the
// PIN; the account signs in with the new number, and the old one is told.

const RATE_LIMITS = 'oauth_authorize_address=10000/60,signin_address=1000/900,signin_phone=1000/900';

describe('the account page’s phone change in Chromium', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  before(async () => {
    const port = await freePort();
    base = `http://localhost:${port}`;
    t = await createTestApp({
      env: { ADMIN_TOKEN, BASE_URL: base, RATE_LIMITS, CHALLENGE_MAX_NUMBER: '20000' },
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    // Codes to Nigeria need a solved challenge while its breaker is held open.
    const held = await t.request('POST', '/admin/v1/sms/countries/NG/breaker', {
      token: ADMIN_TOKEN,
      body: { state: 'open' },
    });
    assert.equal(held.status, 200, JSON.stringify(held.body));
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  for (const [lang, newPhone] of [
    ['en', '+2348031234567'],
    ['ar', '+2348031234568'],
  ] as const) {
    const say = (key: Parameters<typeof translate>[1], values?: Record<string, string | number>) =>
      translate(lang, key, values);

    test(`${lang}: a new number by its code and the PIN, through the SMS defence's challenge`, async () => {
      const s = await signUp(t);
      const context = await browser.newContext({ locale: lang });
      const page = await context.newPage();
      try {
        await page.goto(`${base}/account`);
        await page.getByLabel(say('auth.phone')).fill(s.phone);
        await page.getByLabel(say('auth.pin'), { exact: true }).fill(s.pin);
        await page.getByRole('button', { name: say('auth.continue') }).click();
        await page.getByRole('heading', { name: say('account.title') }).waitFor();

        const form = page.locator('form[action$="/account/phone"]');
        await form.getByLabel(say('auth.phone')).fill(s.phone);
        await form.getByRole('button', { name: say('account.send_code') }).click();
        assert.ok(await page.locator('#phone-error').count(), 'its own number is refused beside the field');

        await form.getByLabel(say('auth.phone')).fill(newPhone);
        await form.getByRole('button', { name: say('account.send_code') }).click();
        // The challenge page solves its proof of work and sends the form again, on to the code.
        await page.getByLabel(say('auth.code'), { exact: true }).waitFor({ timeout: 30_000 });
        await checkLook(page, `account-phone-${lang}-code`);
        await page.getByLabel(say('auth.code'), { exact: true }).fill('000000');
        await page.getByLabel(say('auth.pin'), { exact: true }).fill(s.pin);
        await page.getByRole('button', { name: say('auth.continue') }).click();
        await page.locator('#code-error').waitFor();
        await page.getByLabel(say('auth.code'), { exact: true }).fill(t.sms.lastCode(newPhone));
        await page.getByLabel(say('auth.pin'), { exact: true }).fill(s.pin);
        await page.getByRole('button', { name: say('auth.continue') }).click();
        assert.equal(await page.locator('p.notice').textContent(), say('account.phone_changed'));

        const me = await t.request('GET', '/users/me', { token: s.access_token });
        assert.equal(me.body.data.phone, newPhone);
        assert.ok(t.sms.messagesTo(s.phone).length > 1, 'the old number is told');
        const updated = (await events(t, 'user.updated')).filter(
          (e) => (e.data.user as { id: string }).id === s.user.id,
        );
        assert.deepEqual(updated.at(-1)?.data.changed_fields, ['phone']);
      } finally {
        await context.close();
      }
    });
  }
});
