import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { type Language, translate } from '../../src/i18n/languages.ts';
import { createTestApp, signUp, type TestApp } from '../helpers/app.ts';
import { launchBrowser, withVirtualAuthenticator } from '../helpers/browser.ts';
import { freePort } from '../helpers/free-port.ts';
import { ADMIN_TOKEN } from '../helpers/oauth.ts';
import { buttonLook, checkLook } from '../helpers/page-look.ts';

// The account page in Chromium, in English, Arabic and Hindi (each page checked at 360x740 and 1280x800, light
// and dark, with axe and a screenshot): an app's link to {auth_url}/account goes through the sign-in page and
// back; then the profile, another sign-in signed out, an app's access removed, a passkey added with the DevTools
// protocol's virtual authenticator and renamed, recovery codes made, the language menu, and the account deleted.
// WebAuthn needs a secure context, so the service is http://localhost here.

const NEW_PIN = '730194';
const RATE_LIMITS = 'oauth_authorize_address=10000/60,signin_address=1000/900,signin_phone=1000/900';

describe('the account page in Chromium', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let app: Server;
  let appOrigin: string;
  let thirdParty: string;

  before(async () => {
    const port = await freePort();
    base = `http://localhost:${port}`;
    t = await createTestApp({ env: { ADMIN_TOKEN, BASE_URL: base, RATE_LIMITS } });
    await t.app.listen({ port, host: '127.0.0.1' });
    app = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('back'));
    await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
    appOrigin = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
    const client = await t.request('POST', '/admin/v1/clients', {
      token: ADMIN_TOKEN,
      body: {
        client_name: 'Duka Online',
        redirect_uris: [`${appOrigin}/callback`],
        scope: 'openid phone',
        first_party: false,
      },
    });
    thirdParty = client.body.client_id;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await new Promise((r) => app?.close(r));
    await t?.close();
  });

  /** A browser with a virtual platform authenticator that verifies its user. */
  async function withAuthenticator(lang: Language) {
    const context = await browser.newContext({ locale: lang, timezoneId: 'Asia/Kolkata' });
    return { context, ...(await withVirtualAuthenticator(context)) };
  }

  for (const lang of ['en', 'ar', 'hi'] as const) {
    const say = (key: Parameters<typeof translate>[1], values?: Record<string, string | number>) =>
      translate(lang, key, values);

    test(`${lang}: from an app's link, through the sign-in page, every part of the account`, async () => {
      const s = await signUp(t, { name: 'Asha', device: { name: 'Galaxy A15', platform: 'android' } });
      await t.c.authorization.rememberConsent(s.user.id, thirdParty, 'openid phone');
      const { context, page, credentials } = await withAuthenticator(lang);
      const notice = () => page.locator('p.notice').textContent();
      try {
        await page.goto(`${base}/account?return_to=${encodeURIComponent(appOrigin)}`);
        await page.getByLabel(say('auth.phone')).fill(s.phone);
        await page.getByLabel(say('auth.pin'), { exact: true }).fill(s.pin);
        await page.getByRole('button', { name: say('auth.continue') }).click();
        // This browser can make a passkey: it is offered first, and "Not now" goes on to the account page.
        await page.getByRole('button', { name: say('passkey.not_now') }).click();
        await page.getByRole('heading', { name: say('account.title') }).waitFor();
        const back = page.getByRole('link', {
          name: say('account.back_to', { site: new URL(appOrigin).host }),
        });
        assert.equal(await back.getAttribute('href'), `${appOrigin}/`);
        await checkLook(page, `account-${lang}`);

        await page.getByLabel(say('auth.name')).fill('Asha Devi');
        await page.getByRole('button', { name: say('account.save') }).click();
        assert.equal(await notice(), say('account.saved'));

        await page
          .locator('li', { hasText: 'Galaxy A15' })
          .getByRole('button', { name: say('auth.sign_out') })
          .click();
        assert.equal(await notice(), say('account.session_ended'));
        assert.equal(await page.getByText('Galaxy A15').count(), 0);

        await page
          .locator('li', { hasText: 'Duka Online' })
          .getByRole('button', { name: say('account.remove_access') })
          .click();
        assert.equal(await notice(), say('account.access_removed'));

        await page.getByRole('button', { name: say('account.add_passkey') }).click();
        await page.waitForURL((u) => u.search.includes('done=passkey_added'));
        assert.equal(await notice(), say('account.passkey_added'));
        assert.equal((await credentials()).length, 1);
        const passkey = page.locator('form[action$="passkey/rename"]');
        // A passkey nobody named is named by the browser and system that made it.
        assert.equal(await passkey.getByLabel(say('auth.name')).inputValue(), 'Chrome · Linux');
        await passkey.getByLabel(say('auth.name')).fill('Redmi');
        await passkey.getByRole('button', { name: say('account.rename') }).click();
        assert.equal(await notice(), say('account.passkey_renamed'));

        const codes = page.locator('form[action$="recovery-codes"]');
        await codes.getByLabel(say('auth.pin')).fill(s.pin);
        await codes.getByRole('button', { name: say('account.create_codes') }).click();
        await page.getByRole('heading', { name: say('account.codes_title') }).waitFor();
        assert.equal(await page.locator('ol.codes li').count(), 10);
        await checkLook(page, `account-${lang}-recovery-codes`);
        await page.getByRole('link', { name: say('account.done') }).click();
        assert.ok((await page.content()).includes(say('account.recovery_left', { count: 10 })));

        // Times are the browser's own (this context is in India's time zone), not UTC.
        const times = await page
          .locator('time[datetime]')
          .evaluateAll((els) => els.map((el) => [el.getAttribute('datetime'), el.textContent]));
        assert.ok(times.length >= 2);
        const local = new Intl.DateTimeFormat(lang, {
          dateStyle: 'medium',
          timeStyle: 'short',
          timeZone: 'Asia/Kolkata',
        });
        for (const [at, text] of times) assert.equal(text, local.format(new Date(String(at))));

        const pinForm = page.locator('form[action$="/pin"]');
        await pinForm.getByLabel(say('account.current_pin')).fill('918273');
        await pinForm.getByLabel(say('reset.new_pin')).fill(NEW_PIN);
        await pinForm.getByRole('button', { name: say('account.change_pin') }).click();
        await page.locator('#current_pin-error').waitFor();
        assert.equal(await page.locator('#current_pin-error').textContent(), say('account.pin_wrong'));
        await checkLook(page, `account-${lang}-pin-wrong`);
        await pinForm.getByLabel(say('account.current_pin')).fill(s.pin);
        await pinForm.getByLabel(say('reset.new_pin')).fill(NEW_PIN);
        await pinForm.getByRole('button', { name: say('account.change_pin') }).click();
        assert.equal(await notice(), say('account.pin_changed'));

        const destroy = await buttonLook(page.getByRole('button', { name: say('account.delete') }));
        const save = await buttonLook(page.getByRole('button', { name: say('account.save') }));
        assert.notEqual(destroy.background, save.background, 'deleting does not look like saving');
        assert.ok(destroy.contrast >= 4.5);
        await deleteAccount(context, lang, NEW_PIN);
      } finally {
        await context.close();
      }
    });

    async function deleteAccount(context: BrowserContext, language: Language, pin: string) {
      const [page] = context.pages();
      if (!page) throw new Error('no page');
      const deletion = page.locator('form[action$="/delete"]');
      await deletion.getByLabel(say('account.confirmation')).fill('DELETE MY ACCOUNT');
      await deletion.getByLabel(say('auth.pin')).fill(pin);
      await deletion.getByRole('button', { name: say('account.delete') }).click();
      await page.getByRole('heading', { name: say('account.deleted_title') }).waitFor();
      await checkLook(page, `account-${language}-deleted`);
      const back = page.getByRole('link', {
        name: say('account.back_to', { site: new URL(appOrigin).host }),
      });
      assert.equal(await back.getAttribute('href'), `${appOrigin}/`, 'the way back to the app');
      assert.equal(
        (await context.cookies()).some((c) => c.name === 'callsign_sso'),
        false,
      );
    }
  }

  test('the language menu changes the account page’s language', async () => {
    const s = await signUp(t);
    const context = await browser.newContext({ locale: 'en' });
    const page = await context.newPage();
    try {
      await page.goto(`${base}/account`);
      await page.getByLabel('Phone number').fill(s.phone);
      await page.getByLabel('PIN', { exact: true }).fill(s.pin);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('heading', { name: 'Your account' }).waitFor();
      await page.locator('footer.language select').selectOption('pt-BR');
      await page.getByRole('button', { name: 'Change language' }).click();
      await page.getByRole('heading', { name: 'Sua conta' }).waitFor();
      assert.match(page.url(), /\/authorize\/account$/);
    } finally {
      await context.close();
    }
  });
});
