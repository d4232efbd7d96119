import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Route } from 'playwright-core';
import { translate } from '../../src/i18n/languages.ts';
import { signUp, type TestApp, uniqueHandle, uniquePhone } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { freePort } from '../helpers/free-port.ts';
import { type NetworkApp, networkApp, PHONE_ADDRESS, WIFI_ADDRESS } from '../helpers/network-app.ts';
import { ADMIN_TOKEN, pkce } from '../helpers/oauth.ts';
import { checkLook } from '../helpers/page-look.ts';

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
  let app: Server;
  let callback: string;
  let clientId: string;

  before(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    n = await networkApp({ ADMIN_TOKEN, BASE_URL: base, RATE_LIMITS, SIGNIN_METHODS: 'pin,passkey,code' });
    t = n.t;
    await t.app.listen({ port, host: '127.0.0.1' });
    app = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('back'));
    await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
    callback = `http://127.0.0.1:${(app.address() as AddressInfo).port}/callback`;
    const client = await t.request('POST', '/admin/v1/clients', {
      token: ADMIN_TOKEN,
      body: {
        client_name: 'Duka Online',
        redirect_uris: [callback],
        scope: 'openid phone',
        first_party: true,
      },
    });
    clientId = client.body.client_id;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await new Promise((r) => app?.close(r));
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

  const authorizeUrl = (lang: string) =>
    `${base}/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: callback,
      scope: 'openid phone',
      state: 'silent',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      ui_locales: lang,
    })}`;

  for (const lang of ['en', 'ar'] as const) {
    const say = (key: Parameters<typeof translate>[1]) => translate(lang, key);

    test(`${lang}: a sign-up with no code typed, and back at the app`, async () => {
      const phone = uniquePhone();
      n.vendor.phones.set(PHONE_ADDRESS, phone);
      const context = await phoneBrowser(lang, PHONE_ADDRESS);
      const page = await context.newPage();
      try {
        await page.goto(authorizeUrl(lang));
        await page.getByRole('link', { name: say('auth.create_account') }).click();
        await page.getByLabel(say('auth.phone')).fill(phone);
        await page.getByRole('button', { name: say('auth.continue') }).click();
        await page.getByLabel(say('auth.handle')).fill(uniqueHandle());
        await page.getByLabel(say('auth.pin'), { exact: true }).fill('480715');
        await page.getByRole('button', { name: say('auth.continue') }).click();
        await page.waitForURL((u) => u.href.startsWith(callback));
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
        await page.waitForURL((u) => u.href.startsWith(callback));
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
        await page.goto(authorizeUrl(lang));
        await page.getByRole('link', { name: say('auth.create_account') }).click();
        await page.getByLabel(say('auth.phone')).fill(phone);
        await page.getByRole('button', { name: say('auth.continue') }).click();
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
      await page.goto(authorizeUrl('en'));
      await page.getByRole('link', { name: 'Create account' }).click();
      await page.getByLabel('Phone number').fill(phone);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Handle').waitFor();
      assert.equal(t.sms.messagesTo(phone).length, 0, 'no code');
    } finally {
      await context.close();
    }
  });
});
