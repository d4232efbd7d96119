import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import * as oidc from 'openid-client';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type Language, translate } from '../../src/i18n/languages.ts';
import { createTestApp, signUp, type TestApp, uniqueHandle, uniquePhone } from '../helpers/app.ts';
import { launchBrowser, withVirtualAuthenticator } from '../helpers/browser.ts';
import { freePort } from '../helpers/free-port.ts';
import { checkLook } from '../helpers/page-look.ts';

// Passkeys on the hosted pages in Debian's Chromium, with the DevTools protocol's virtual authenticator (a
// user-verifying platform authenticator that keeps discoverable credentials): the offer after a sign-up makes
// one, and "Sign in with a passkey" signs in with it through a relying party's code flow, in English and in
// Arabic. WebAuthn needs a secure context, so the service is http://localhost here (an RP ID cannot be an IP).

const ADMIN_TOKEN = 'admin-token-for-passkey-browser-tests';
const PHR = 'urn:callsign:acr:phr';

describe('passkeys in Chromium: offered after sign-up, then signing in through a code flow', () => {
  let t: TestApp;
  let issuer: string;
  let browser: Browser;
  let rp: Server;
  let callback: string;
  let config: oidc.Configuration;

  before(async () => {
    const port = await freePort();
    issuer = `http://localhost:${port}`;
    t = await createTestApp({ env: { ADMIN_TOKEN, BASE_URL: issuer } });
    await t.app.listen({ port, host: '127.0.0.1' });
    rp = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('back'));
    await new Promise<void>((r) => rp.listen(0, '127.0.0.1', r));
    callback = `http://127.0.0.1:${(rp.address() as AddressInfo).port}/callback`;
    const client = await t.request('POST', '/admin/v1/clients', {
      token: ADMIN_TOKEN,
      body: {
        client_name: 'Acme Shop',
        redirect_uris: [callback],
        scope: 'openid phone',
        first_party: true,
        token_endpoint_auth_method: 'none',
      },
    });
    config = await oidc.discovery(new URL(issuer), client.body.client_id, undefined, oidc.None(), {
      execute: [oidc.allowInsecureRequests],
    });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await new Promise((r) => rp?.close(r));
    await t?.close();
  });

  /** A relying party's authorization request (PKCE, state, nonce), with any extra parameters. */
  async function authorization(extra: Record<string, string> = {}) {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: callback,
      scope: 'openid phone',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      ...extra,
    });
    return { url, check: { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce } };
  }

  /** A browser page with a virtual platform authenticator that verifies its user and keeps passkeys. */
  async function withAuthenticator(lang: Language, o: { autofill: boolean }) {
    const context = await browser.newContext({ locale: lang });
    // A browser without passkeys in its autofill, where the test is of the button.
    if (!o.autofill)
      await context.addInitScript(() => {
        PublicKeyCredential.isConditionalMediationAvailable = async () => false;
      });
    const { page, credentials } = await withVirtualAuthenticator(context);
    return { context, page, credentials };
  }

  /** The page's sign-up, in the page's language: phone, code, PIN and handle. */
  async function signUpOnPage(page: Page, lang: Language) {
    const say = (key: Parameters<typeof translate>[1]) => translate(lang, key);
    const phone = uniquePhone();
    await page.getByRole('link', { name: say('auth.create_account') }).click();
    await page.getByLabel(say('auth.phone')).fill(phone);
    await page.getByRole('button', { name: say('auth.continue') }).click();
    await page.getByLabel(say('auth.code')).fill(t.sms.lastCode(phone));
    await page.getByRole('button', { name: say('auth.continue') }).click();
    await page.getByLabel(say('auth.pin'), { exact: true }).fill('480715');
    await page.getByLabel(say('auth.handle')).fill(uniqueHandle());
    await page.getByRole('button', { name: say('auth.continue') }).click();
    return phone;
  }

  /** The ID token's amr and acr after the browser came back to the relying party. */
  async function claimsBack(page: Page, check: Parameters<typeof oidc.authorizationCodeGrant>[2]) {
    await page.waitForURL((u) => u.href.startsWith(callback));
    const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), check);
    const claims = tokens.claims();
    return { amr: claims?.amr, acr: claims?.acr };
  }

  async function signUpThenPasskey(lang: Language, context: BrowserContext, page: Page, autofill = false) {
    const say = (key: Parameters<typeof translate>[1]) => translate(lang, key);
    const first = await authorization({ ui_locales: lang });
    await page.goto(first.url.href);
    const phone = await signUpOnPage(page, lang);
    const create = page.getByRole('button', { name: say('passkey.create') });
    await create.waitFor();
    assert.equal(await page.getAttribute('html', 'dir'), lang === 'ar' ? 'rtl' : 'ltr');
    await page.getByRole('button', { name: say('passkey.not_now') }).waitFor();
    await checkLook(page, `passkey-offer-${lang}`);
    await create.click();
    await claimsBack(page, first.check);
    // Signed out of the single sign-on, the passkey alone signs in.
    await context.clearCookies();
    const second = await authorization({ ui_locales: lang });
    await page.goto(second.url.href);
    // The browser offers the passkey in the phone field's autofill, where the virtual authenticator takes it.
    if (!autofill) await page.getByRole('button', { name: say('passkey.sign_in') }).click();
    return { phone, claims: await claimsBack(page, second.check) };
  }

  const assertPhishingResistant = (claims: { amr: unknown; acr: unknown }) => {
    assert.equal(claims.acr, PHR);
    const amr = claims.amr as string[];
    assert.ok(['hwk', 'swk'].includes(amr[0] ?? ''), String(amr));
    assert.deepEqual(amr.slice(1), ['user', 'mfa']);
  };

  for (const lang of ['en', 'ar'] as const) {
    test(`${lang}: "Create a passkey" after sign-up, then "Sign in with a passkey": the ID token says phr`, async () => {
      const { context, page, credentials } = await withAuthenticator(lang, { autofill: false });
      assertPhishingResistant((await signUpThenPasskey(lang, context, page)).claims);
      const [kept] = await credentials();
      assert.equal(kept?.isResidentCredential, true, 'a discoverable credential');
      await context.close();
    });
  }

  test('where the browser offers passkeys in the phone field’s autofill, picking one signs in', async () => {
    const { context, page } = await withAuthenticator('en', { autofill: true });
    assertPhishingResistant((await signUpThenPasskey('en', context, page, true)).claims);
    await context.close();
  });

  test('a client asking for phr after a PIN gets the step-up page; the passkey answers it', async () => {
    const { context, page } = await withAuthenticator('en', { autofill: false });
    const { phone } = await signUpThenPasskey('en', context, page);
    await context.clearCookies();
    const stepUp = await authorization({ acr_values: PHR });
    await page.goto(stepUp.url.href);
    await page.getByLabel('Phone number').fill(phone);
    await page.getByLabel('PIN').fill('480715');
    await page.getByRole('button', { name: 'Continue' }).click();
    const confirm = page.getByRole('button', { name: 'Sign in with a passkey' });
    await confirm.waitFor();
    await page.getByRole('button', { name: 'Continue without a passkey' }).waitFor();
    await checkLook(page, 'passkey-step-up-en');
    await confirm.click();
    assertPhishingResistant(await claimsBack(page, stepUp.check));
    await context.close();
  });

  test('without JavaScript the sign-in page shows no passkey button and the PIN still signs in', async () => {
    const user = await signUp(t);
    const plain = await browser.newContext({ javaScriptEnabled: false });
    const noScript = await plain.newPage();
    const request = await authorization();
    await noScript.goto(request.url.href);
    assert.equal(await noScript.getByRole('button', { name: 'Sign in with a passkey' }).count(), 0);
    await noScript.getByLabel('Phone number').fill(user.phone);
    await noScript.getByLabel('PIN').fill(user.pin);
    await noScript.getByRole('button', { name: 'Continue' }).click();
    await noScript.waitForURL((u) => u.href.startsWith(callback));
    await plain.close();
  });
});
