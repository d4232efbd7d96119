import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { translate } from '../../src/i18n/languages.ts';
import { createTestApp, signUp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { freePort } from '../helpers/free-port.ts';
import { ADMIN_TOKEN } from '../helpers/oauth.ts';
import { checkLook } from '../helpers/page-look.ts';
import { type ReturningApp, returningApp } from '../helpers/returning-app.ts';
import { type NumberTable, ownService } from '../helpers/sim-vendors.ts';
import { VendorServer } from '../helpers/vendor-server.ts';

// "Forgot PIN?" in Chromium for a number whose SIM changed recently: the code does not reset the PIN, the page
// says why in the person's language (English and Arabic, checked for its look and with axe) and offers the
// account's recovery code, which then resets the PIN and goes back to the app.

const RATE_LIMITS =
  'otp_send_address=1000/3600,otp_send_phone=100/3600,oauth_authorize_address=10000/60,signin_address=1000/900,signin_phone=1000/900';

describe('a swapped SIM on the hosted pages', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let app: ReturningApp;
  const numbers: NumberTable = new Map();
  const vendor = new VendorServer(ownService(numbers));

  before(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const simCheckUrl = await vendor.start();
    t = await createTestApp({
      env: {
        ADMIN_TOKEN,
        BASE_URL: base,
        RATE_LIMITS,
        SIM_CHECK_PROVIDER: 'http',
        SIM_CHECK_HTTP_URL: simCheckUrl,
      },
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    app = await returningApp(t);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
    await t?.close();
    await vendor.close();
  });

  for (const lang of ['en', 'ar'] as const) {
    const say = (key: Parameters<typeof translate>[1]) => translate(lang, key);
    test(`${lang}: the code is refused, the page says why, and a recovery code resets the PIN`, async () => {
      const s = await signUp(t);
      const made = await t.request('POST', '/users/me/recovery-codes', {
        token: s.access_token,
        body: { pin: s.pin },
      });
      numbers.set(s.phone, { swapped: true });
      const context = await browser.newContext({ locale: lang });
      const page = await context.newPage();
      try {
        await page.goto(app.authorizeUrl(base, lang, 'risk'));
        await page.getByRole('link', { name: say('auth.forgot_pin') }).click();
        await page.getByLabel(say('auth.phone')).fill(s.phone);
        await page.getByRole('button', { name: say('auth.continue') }).click();
        await page.getByLabel(say('auth.code'), { exact: true }).fill(t.sms.lastCode(s.phone));
        await page.getByRole('button', { name: say('auth.continue') }).click();
        await page.getByRole('heading', { name: say('risk.title') }).waitFor();
        assert.ok((await page.content()).includes(say('risk.sim_swap')));
        await checkLook(page, `phone-risk-${lang}`);
        await page.getByRole('link', { name: say('reset.use_recovery_code') }).click();
        await page.getByLabel(say('reset.recovery_code')).fill(made.body.data.codes[0]);
        await page.getByLabel(say('reset.new_pin')).fill('739164');
        await page.getByRole('button', { name: say('auth.continue') }).click();
        await page.getByRole('heading', { name: say('reset.removed_title') }).waitFor();
        await page.getByRole('button', { name: say('auth.continue') }).click();
        await page.waitForURL((u) => u.href.startsWith(app.callback));
      } finally {
        await context.close();
      }
    });
  }
});
