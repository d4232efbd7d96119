import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { translate } from '../../src/i18n/languages.ts';
import { type SignedUp, signUp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { DEVICE_GRANT, registerDeviceClient, tokenRequest } from '../helpers/oauth.ts';
import { checkLook } from '../helpers/page-look.ts';
import { listeningApp } from '../helpers/relying-party.ts';

// A TV's sign-in (RFC 8628) in Chromium on a 360 px phone, in English and Arabic: the verification page the TV
// names, the code typed in small letters without its dash, the PIN, the consent page (always shown to a
// device), and the page that says the TV is signed in; each page checked for its look and with axe. The TV's
// next poll then gets its tokens.

describe('a device signed in from a phone', () => {
  let t: TestApp;
  let issuer: string;
  let browser: Browser;
  let user: SignedUp;
  let tv: { client_id: string };
  before(async () => {
    ({ t, issuer } = await listeningApp());
    user = await signUp(t);
    tv = await registerDeviceClient(t);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const ask = () =>
    t.request('POST', '/oauth/device_authorization', {
      body: new URLSearchParams({ client_id: tv.client_id, scope: 'openid phone' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const poll = (deviceCode: string) =>
    tokenRequest(t, { grant_type: DEVICE_GRANT, client_id: tv.client_id, device_code: deviceCode });

  for (const lang of ['en', 'ar'] as const) {
    const say = (key: Parameters<typeof translate>[1], values?: Record<string, string>) =>
      translate(lang, key, values);
    test(`${lang}: the code, the sign-in, consent, and the TV is signed in`, async () => {
      const device = (await ask()).body;
      const context = await browser.newContext({ locale: lang, viewport: { width: 360, height: 740 } });
      const page = await context.newPage();
      try {
        await page.goto(device.verification_uri);
        await page.getByRole('heading', { name: say('device.title') }).waitFor();
        await checkLook(page, `device-code-${lang}`);
        await page
          .getByLabel(say('auth.code'), { exact: true })
          .fill(device.user_code.replace('-', '').toLowerCase());
        await page.getByRole('button', { name: say('auth.continue') }).click();
        await page.getByLabel(say('auth.phone')).fill(user.phone);
        await page.getByLabel(say('auth.pin')).fill(user.pin);
        await page.getByRole('button', { name: say('auth.continue') }).click();
        await page.getByRole('button', { name: say('auth.allow') }).waitFor();
        assert.ok((await page.content()).includes(say('device.consent_note')));
        await checkLook(page, `device-consent-${lang}`);
        assert.equal((await poll(device.device_code)).body.error, 'authorization_pending');
        await page.getByRole('button', { name: say('auth.allow') }).click();
        await page.getByRole('heading', { name: say('device.done_title') }).waitFor();
        await checkLook(page, `device-done-${lang}`);
      } finally {
        await context.close();
      }
      t.clock.advance(5);
      const tokens = await poll(device.device_code);
      assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
      assert.ok(tokens.body.id_token);
      assert.equal(new URL(device.verification_uri).origin, issuer);
    });
  }

  test('a wrong code is said so on the page, in the person’s language', async () => {
    const context = await browser.newContext({ locale: 'ar', viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    try {
      await page.goto(`${issuer}/device`);
      await page.getByLabel(translate('ar', 'auth.code'), { exact: true }).fill('BBBB-BBBB');
      await page.getByRole('button', { name: translate('ar', 'auth.continue') }).click();
      await page.getByText(translate('ar', 'device.wrong_code')).waitFor();
      await checkLook(page, 'device-wrong-code-ar');
    } finally {
      await context.close();
    }
  });
});
