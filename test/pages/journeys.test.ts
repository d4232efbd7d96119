import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { type Language, translate } from '../../src/i18n/languages.ts';
import { createTestApp, type SignedUp, signUp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { freePort } from '../helpers/free-port.ts';
import { ADMIN_TOKEN, pkce } from '../helpers/oauth.ts';
import { buttonLook, checkLook, SCHEMES } from '../helpers/page-look.ts';

// The journeys people expect on the hosted pages, driven in Chromium in English, Arabic and Hindi (each page
// checked at 360x740 and 1280x800, light and dark, with axe and a screenshot), and with JavaScript off: a code
// instead of the PIN, "Forgot PIN?" with a recovery code, the lock's minutes, the code page's ways on, and
// "Not you?" on the consent page.

const RATE_LIMITS =
  'otp_send_address=1000/3600,otp_send_phone=100/3600,oauth_authorize_address=10000/60,signin_address=1000/900,signin_phone=1000/900';
const NEW_PIN = '739164';

describe('the journeys on the hosted pages', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let app: Server;
  let callback: string;
  const clients: Record<'firstParty' | 'thirdParty', string> = { firstParty: '', thirdParty: '' };

  before(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({
      env: { ADMIN_TOKEN, BASE_URL: base, RATE_LIMITS, SIGNIN_METHODS: 'pin,passkey,code' },
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    app = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('back'));
    await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
    callback = `http://127.0.0.1:${(app.address() as AddressInfo).port}/callback`;
    for (const [kind, first_party] of [
      ['firstParty', true],
      ['thirdParty', false],
    ] as const) {
      const client = await t.request('POST', '/admin/v1/clients', {
        token: ADMIN_TOKEN,
        body: { client_name: 'Duka Online', redirect_uris: [callback], scope: 'openid phone', first_party },
      });
      clients[kind] = client.body.client_id;
    }
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await new Promise((r) => app?.close(r));
    await t?.close();
  });

  const authorizeUrl = (lang: Language, client: keyof typeof clients = 'firstParty') =>
    `${base}/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: clients[client],
      redirect_uri: callback,
      scope: 'openid phone',
      state: 'journey',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      ui_locales: lang,
    })}`;

  const backAtTheApp = (page: Page) => page.waitForURL((u) => u.href.startsWith(callback));

  /** An account with recovery codes; answers it and its first code. */
  async function accountWithCodes(): Promise<{ s: SignedUp; recovery: string }> {
    const s = await signUp(t);
    const made = await t.request('POST', '/users/me/recovery-codes', {
      token: s.access_token,
      body: { pin: s.pin },
    });
    return { s, recovery: made.body.data.codes[0] };
  }

  for (const lang of ['en', 'ar', 'hi'] as const) {
    const say = (key: Parameters<typeof translate>[1], values?: Record<string, string | number>) =>
      translate(lang, key, values);

    test(`${lang}: a code instead of the PIN; Forgot PIN? with a recovery code; the lock; Not you?`, async () => {
      const { s, recovery } = await accountWithCodes();
      const context = await browser.newContext({ locale: lang });
      const page = await context.newPage();
      try {
        await page.goto(authorizeUrl(lang));
        await page.getByRole('button', { name: say('passkey.sign_in') }).waitFor();
        await checkLook(page, `journey-${lang}-signin`);
        await page.getByLabel(say('auth.phone')).fill(s.phone);
        await page.getByRole('button', { name: say('auth.code_instead_sms') }).click();
        const resend = page.getByRole('button', { name: say('code.resend') });
        await resend.waitFor();
        // The page's script disables the button once it runs, a moment after the button is there (on a loaded
        // CI machine, seconds after): the wait ends as soon as it has.
        await page
          .waitForFunction("document.querySelector('button[data-wait-seconds]')?.disabled === true", null, {
            timeout: 20_000,
          })
          .catch(() => {});
        assert.equal(await resend.isDisabled(), true, 'the countdown holds "Send a new code"');
        // A disabled button looks and points unlike an enabled one, its text still readable (AA).
        for (const colorScheme of SCHEMES) {
          await page.emulateMedia({ colorScheme });
          const waiting = await buttonLook(resend);
          const enabled = await buttonLook(page.getByRole('button', { name: say('auth.continue') }));
          assert.equal(waiting.cursor, 'not-allowed', colorScheme);
          assert.equal(enabled.cursor, 'pointer', colorScheme);
          assert.notEqual(waiting.background, enabled.background, colorScheme);
          assert.equal(waiting.borderStyle, 'dashed', colorScheme);
          assert.ok(waiting.contrast >= 4.5, `${colorScheme}: contrast ${waiting.contrast}`);
        }
        await checkLook(page, `journey-${lang}-code-signin`);
        await page.getByLabel(say('auth.code'), { exact: true }).fill(t.sms.lastCode(s.phone));
        await page.getByRole('button', { name: say('auth.continue') }).click();
        await backAtTheApp(page);

        await context.clearCookies();
        await page.goto(authorizeUrl(lang));
        await page.getByRole('link', { name: say('auth.forgot_pin') }).click();
        // Each look is taken once the next page has loaded, not while the click's navigation is under way.
        await page.waitForURL((u) => u.pathname === '/authorize/reset');
        await page.getByRole('heading', { name: say('reset.title') }).waitFor();
        await checkLook(page, `journey-${lang}-reset-phone`);
        await page.getByLabel(say('auth.phone')).fill(s.phone);
        await page.getByRole('button', { name: say('auth.continue') }).click();
        await page.getByRole('link', { name: say('reset.use_recovery_code') }).click();
        await page.getByLabel(say('reset.recovery_code')).waitFor();
        await checkLook(page, `journey-${lang}-reset-recovery`);
        await page.getByLabel(say('reset.recovery_code')).fill(recovery);
        await page.getByLabel(say('reset.new_pin')).fill(NEW_PIN);
        await page.getByRole('button', { name: say('auth.continue') }).click();
        // The reset ended the recovery codes: the page says so, then goes on.
        await page.getByRole('heading', { name: say('reset.removed_title') }).waitFor();
        await checkLook(page, `journey-${lang}-reset-removed`);
        await page.getByRole('button', { name: say('auth.continue') }).click();
        await backAtTheApp(page);

        // Ten wrong PINs: the page says how long the lock lasts, beside "Forgot PIN?".
        await context.clearCookies();
        await page.goto(authorizeUrl(lang));
        for (let i = 0; i < 10; i++) {
          await page.getByLabel(say('auth.phone')).fill(s.phone);
          await page.getByLabel(say('auth.pin'), { exact: true }).fill('918273');
          await page.getByRole('button', { name: say('auth.continue') }).click();
          await page.waitForLoadState('load');
        }
        await page.getByText(say('error.locked_wait', { minutes: 60 })).waitFor();
        await page.getByRole('link', { name: say('auth.forgot_pin') }).waitFor();
        await checkLook(page, `journey-${lang}-locked`);

        // A third-party app's consent page names the account; "Not you?" starts again at the sign-in page.
        const other = await signUp(t, { name: 'Amani' });
        await context.clearCookies();
        await page.goto(authorizeUrl(lang, 'thirdParty'));
        await page.getByLabel(say('auth.phone')).fill(other.phone);
        await page.getByLabel(say('auth.pin'), { exact: true }).fill(other.pin);
        await page.getByRole('button', { name: say('auth.continue') }).click();
        await page.getByRole('button', { name: say('auth.not_you') }).waitFor();
        assert.ok((await page.content()).includes('Amani'));
        await checkLook(page, `journey-${lang}-consent-who`);
        await page.getByRole('button', { name: say('auth.not_you') }).click();
        await page.getByLabel(say('auth.pin'), { exact: true }).waitFor();
        assert.equal(
          (await context.cookies()).some((c) => c.name === 'callsign_sso'),
          false,
        );
      } finally {
        await context.close();
      }
    });
  }

  test('with JavaScript off: a code instead of the PIN, the code page’s ways on, Forgot PIN?, Not you?', async () => {
    const s = await signUp(t);
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(authorizeUrl('en'));
      await page.getByLabel('Phone number').fill(s.phone);
      await page.getByRole('button', { name: 'Text me a code instead' }).click();
      // Without the countdown the button is there; the server says how long to wait.
      await page.getByRole('button', { name: 'Send a new code' }).click();
      assert.ok((await page.content()).includes(translate('en', 'code.resend_wait', { seconds: 30 })));
      await page.getByRole('link', { name: 'Change number' }).click();
      await page.getByLabel('PIN', { exact: true }).waitFor();
      await page.getByLabel('Phone number').fill(s.phone);
      await page.getByRole('button', { name: 'Text me a code instead' }).click();
      t.clock.advance(31);
      await page.getByRole('button', { name: 'Send a new code' }).click();
      await page.getByLabel('Code', { exact: true }).fill(t.sms.lastCode(s.phone));
      await page.getByRole('button', { name: 'Continue' }).click();
      await backAtTheApp(page);

      await context.clearCookies();
      await page.goto(authorizeUrl('en', 'thirdParty'));
      await page.getByRole('link', { name: 'Forgot PIN?' }).click();
      await page.getByLabel('Phone number').fill(s.phone);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Code', { exact: true }).fill(t.sms.lastCode(s.phone));
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('New PIN').fill(NEW_PIN);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('button', { name: 'Not you?' }).click();
      await page.getByLabel('PIN', { exact: true }).waitFor();
    } finally {
      await context.close();
    }
  });
});
