import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { type Language, translate } from '../../src/i18n/languages.ts';
import { signUp, type TestApp, uniqueHandle, uniquePhone } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { freePort } from '../helpers/free-port.ts';
import { type NetworkApp, networkApp, PHONE_ADDRESS, WIFI_ADDRESS } from '../helpers/network-app.ts';
import { ADMIN_TOKEN } from '../helpers/oauth.ts';
import { checkLook } from '../helpers/page-look.ts';
import { type ReturningApp, returningApp } from '../helpers/returning-app.ts';

// The silent step in Chromium on a 360 px phone, in English and Arabic: the page's requests to the operator go
// out from the "phone" address (a device on the operator's data network holding the number) or from the
// "Wi-Fi" one. A sign-up and a sign-in by code go on with no code typed; on Wi-Fi the same sign-up falls back
// to one code, and the code step says so.

const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/125.0 Mobile Safari/537.36';
const RATE_LIMITS =
  'otp_send_address=1000/3600,otp_send_phone=100/3600,oauth_authorize_address=10000/60,signin_address=1000/900,signin_phone=1000/900';

/** Every request of the page to the operator, sent from `address` and answered as the operator answered it. */
function throughAddress(address: string) {
  return async (route: Route) => {
    const asked = route.request();
    const answer = await new Promise<{ status: number; headers: Record<string, string>; body: string }>(
      (resolve, reject) => {
        const call = request(asked.url(), { method: asked.method(), localAddress: address }, (res) => {
          let body = '';
          res.on('data', (chunk) => {
            body += chunk;
          });
          res.on('end', () => {
            const headers: Record<string, string> = {};
            for (const name of ['location', 'content-type'])
              if (res.headers[name]) headers[name] = String(res.headers[name]);
            resolve({ status: res.statusCode ?? 0, headers, body });
          });
        });
        call.on('error', reject);
        call.end();
      },
    );
    await route.fulfill(answer);
  };
}

describe('the silent step in Chromium', () => {
  let n: NetworkApp;
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let app: ReturningApp;

  before(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    n = await networkApp({ ADMIN_TOKEN, BASE_URL: base, RATE_LIMITS, SIGNIN_METHODS: 'pin,passkey,code' });
    t = n.t;
    await t.app.listen({ port, host: '127.0.0.1' });
    app = await returningApp(t);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
    await n?.close();
  });

  /** A phone's browser at 360 px in `lang`, whose requests to the operator leave from `address`. */
  async function phoneBrowser(
    lang: string,
    address: string,
    javaScriptEnabled = true,
  ): Promise<BrowserContext> {
    const context = await browser.newContext({
      javaScriptEnabled,
      locale: lang,
      userAgent: ANDROID,
      viewport: { width: 360, height: 740 },
    });
    await context.route(`${n.operator.url}/**`, throughAddress(address));
    return context;
  }

  const authorizeUrl = (lang: string) => app.authorizeUrl(base, lang, 'silent');
  const backAtTheApp = (page: Page) => page.waitForURL((u) => u.href.startsWith(app.callback));

  /** From the app to the sign-up's phone step, the number typed and "Continue" pressed. */
  async function signUpPhoneStep(page: Page, lang: Language, phone: string) {
    const say = (key: Parameters<typeof translate>[1]) => translate(lang, key);
    await page.goto(authorizeUrl(lang));
    await page.getByRole('link', { name: say('auth.create_account') }).click();
    await page.getByLabel(say('auth.phone')).fill(phone);
    await page.getByRole('button', { name: say('auth.continue') }).click();
  }

  for (const lang of ['en', 'ar'] as const) {
    const say = (key: Parameters<typeof translate>[1]) => translate(lang, key);

    test(`${lang}: a sign-up with no code typed, and back at the app`, async () => {
      const phone = uniquePhone();
      n.vendor.phones.set(PHONE_ADDRESS, phone);
      const context = await phoneBrowser(lang, PHONE_ADDRESS);
      const page = await context.newPage();
      try {
        await signUpPhoneStep(page, lang, phone);
        await page.getByLabel(say('auth.handle')).fill(uniqueHandle());
        await page.getByLabel(say('auth.pin'), { exact: true }).fill('480715');
        await page.getByRole('button', { name: say('auth.continue') }).click();
        await backAtTheApp(page);
        assert.equal(t.sms.messagesTo(phone).length, 0, 'no code');
      } finally {
        await context.close();
      }
    });

    test(`${lang}: a sign-in by code with no code typed`, async () => {
      const s = await signUp(t);
      const sent = t.sms.messagesTo(s.phone).length;
      n.vendor.phones.set(PHONE_ADDRESS, s.phone);
      const context = await phoneBrowser(lang, PHONE_ADDRESS);
      const page = await context.newPage();
      try {
        await page.goto(authorizeUrl(lang));
        await page.getByLabel(say('auth.phone')).fill(s.phone);
        await page.getByRole('button', { name: say('auth.code_instead_sms') }).click();
        await backAtTheApp(page);
        assert.equal(t.sms.messagesTo(s.phone).length, sent, 'no code');
      } finally {
        await context.close();
      }
    });

    test(`${lang}: on Wi-Fi, one code instead, and the page says so`, async () => {
      const phone = uniquePhone();
      const context = await phoneBrowser(lang, WIFI_ADDRESS);
      const page = await context.newPage();
      try {
        await signUpPhoneStep(page, lang, phone);
        await page.getByText(say('network.code_instead')).waitFor();
        await checkLook(page, `network-code-instead-${lang}`);
        assert.equal(t.sms.messagesTo(phone).length, 1, 'exactly one code');
        await page.getByLabel(say('auth.code'), { exact: true }).fill(t.sms.lastCode(phone));
        await page.getByRole('button', { name: say('auth.continue') }).click();
        await page.getByLabel(say('auth.handle')).waitFor();
      } finally {
        await context.close();
      }
    });
  }

  test('with JavaScript off: the page refreshes to the operator and comes back signed up', async () => {
    const phone = uniquePhone();
    n.vendor.phones.set(PHONE_ADDRESS, phone);
    const context = await phoneBrowser('en', PHONE_ADDRESS, false);
    const page = await context.newPage();
    try {
      await signUpPhoneStep(page, 'en', phone);
      await page.getByLabel('Handle').waitFor();
      assert.equal(t.sms.messagesTo(phone).length, 0, 'no code');
    } finally {
      await context.close();
    }
  });
});
