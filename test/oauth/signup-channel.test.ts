import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { createTestApp, type TestApp, uniquePhone } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { freePort } from '../helpers/free-port.ts';
import { writeConfig } from '../helpers/messaging.ts';
import { ADMIN_TOKEN, authorizationParams, authorizeUrl, pkce, registerClient } from '../helpers/oauth.ts';
import { VendorServer } from '../helpers/vendor-server.ts';
import * as vendors from '../helpers/vendors.ts';

// The hosted sign-up page lets a person choose the channel when the service offers more than SMS, and says
// nothing of channels when it offers SMS alone. JavaScript off: a plain form.

describe('the hosted sign-up page and channels', () => {
  const tw = new VendorServer(vendors.twilio('AC1', 'tw-token'));
  const meta = new VendorServer(vendors.whatsappCloud('55', 'meta-token'));
  let t: TestApp;
  let plain: TestApp;
  let base: string;
  let browser: Browser;
  before(async () => {
    const [twUrl, metaUrl] = await Promise.all([tw.start(), meta.start()]);
    const path = writeConfig({
      providers: {
        tw: {
          type: 'twilio',
          account_sid: 'AC1',
          auth_token: 'tw-token',
          from: '+15005550006',
          api_url: twUrl,
        },
        meta: {
          type: 'whatsapp_cloud',
          phone_number_id: '55',
          access_token: 'meta-token',
          template: 'code',
          api_url: metaUrl,
        },
      },
      routes: [{ countries: ['*'], sms: ['tw'], whatsapp: ['meta'] }],
    });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({
      env: { ADMIN_TOKEN, BASE_URL: base, SMS_PROVIDER: '', MESSAGING_CONFIG: path },
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    plain = await createTestApp({ env: { ADMIN_TOKEN } });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await plain?.close();
    await Promise.all([tw.close(), meta.close()]);
  });

  test('WhatsApp chosen on the page: the code goes by WhatsApp', async () => {
    const client = await registerClient(t);
    const params = authorizationParams(client.client_id, pkce().challenge, { prompt: 'create' });
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${base}${authorizeUrl(params)}`);
      const phone = uniquePhone();
      await page.getByLabel('Phone number').fill(phone);
      const choice = page.getByLabel('Send the code by');
      assert.deepEqual(await choice.locator('option').allTextContents(), ['Text message (SMS)', 'WhatsApp']);
      await choice.selectOption('whatsapp');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Code').waitFor();
      assert.equal((meta.requests.at(-1)?.json as { to: string }).to, phone.slice(1));
    } finally {
      await context.close();
    }
  });

  test('with SMS alone there is no choice to make', async () => {
    const client = await registerClient(plain);
    const params = authorizationParams(client.client_id, pkce().challenge, { prompt: 'create' });
    const res = await plain.app.inject({ method: 'GET', url: authorizeUrl(params) });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /Phone number/);
    assert.doesNotMatch(res.body, /Send the code by/);
  });
});
