import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import { createTestApp, signUp, type TestApp, uniqueHandle, uniquePhone } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { freePort } from '../helpers/free-port.ts';

const ADMIN_TOKEN = 'admin-token-for-browser-tests-0123';

describe('OAuth 2.0 / OIDC end to end: openid-client and a real Chromium on the hosted page', () => {
  let t: TestApp;
  let issuer: string;
  let browser: Browser;
  let rp: Server;
  let callback: string;

  before(async () => {
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    t = await createTestApp({ env: { ADMIN_TOKEN, BASE_URL: issuer } });
    await t.app.listen({ port, host: '127.0.0.1' });
    // The relying party's callback: a real server, so the browser lands somewhere.
    rp = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/plain' }).end('back at the app'),
    );
    await new Promise<void>((r) => rp.listen(0, '127.0.0.1', r));
    callback = `http://127.0.0.1:${(rp.address() as AddressInfo).port}/callback`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await new Promise((r) => rp?.close(r));
    await t?.close();
  });

  const register = async (extra: Record<string, unknown> = {}) =>
    (
      await t.request('POST', '/admin/v1/clients', {
        token: ADMIN_TOKEN,
        body: {
          client_name: 'Acme Shop',
          redirect_uris: [callback],
          scope: 'openid profile phone kyc',
          ...extra,
        },
      })
    ).body;

  // D19: each client authenticates the way it registered (client_secret_basic by default, none if public).
  const discover = (client: { client_id: string; client_secret?: string }) =>
    oidc.discovery(
      new URL(issuer),
      client.client_id,
      undefined,
      client.client_secret ? oidc.ClientSecretBasic(client.client_secret) : oidc.None(),
      { execute: [oidc.allowInsecureRequests] },
    );

  async function authorizationUrl(
    config: oidc.Configuration,
    scope = 'openid profile phone kyc',
    extra: Record<string, string> = {},
  ) {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: callback,
      scope,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      ...extra,
    });
    return { url, verifier, state, nonce };
  }

  /** The page's sign-up form, from the phone number to the PIN and handle; answers the new number. */
  /** A first-party public client, and a browser signed in on its authorization page with this account. */
  async function signedInOnPage(user: { phone: string; pin: string }) {
    const app = await register({ first_party: true, token_endpoint_auth_method: 'none' });
    const config = await discover(app);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto((await authorizationUrl(config, 'openid phone')).url.href);
    await page.getByLabel('Phone number').fill(user.phone);
    await page.getByLabel('PIN').fill(user.pin);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((u) => u.href.startsWith(callback));
    return { app, config, context, page };
  }

  async function signUpOnPage(page: Page, name?: string) {
    const phone = uniquePhone();
    await page.getByLabel('Phone number').fill(phone);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Code').fill(t.sms.lastCode(phone));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('PIN').fill('480715');
    await page.getByLabel('Handle').fill(uniqueHandle());
    if (name) await page.getByLabel('Name').fill(name);
    await page.getByRole('button', { name: 'Continue' }).click();
    return phone;
  }

  test('sign-up on the hosted page, consent, code exchange, ID token, userinfo, refresh, revoke', async () => {
    const client = await register();
    const config = await discover(client);
    const { url, verifier, state, nonce } = await authorizationUrl(config);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url.href);
    await page.getByRole('link', { name: 'Create account' }).click();
    const phone = await signUpOnPage(page, 'Browser User');
    await page.getByRole('button', { name: 'Allow' }).waitFor();
    assert.match(await page.content(), /See your phone number/);
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((u) => u.href.startsWith(callback));
    const back = new URL(page.url());
    assert.equal(back.searchParams.get('iss'), issuer, 'RFC 9207');

    const tokens = await oidc.authorizationCodeGrant(config, back, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    assert.equal(tokens.token_type.toLowerCase(), 'bearer');
    assert.equal(tokens.expires_in, 3600);
    const idClaims = tokens.claims();
    assert.ok(idClaims);
    assert.equal(idClaims.nonce, nonce);
    assert.equal(idClaims.phone, phone);
    assert.equal(idClaims.phone_verified, true);
    assert.equal(idClaims.name, 'Browser User');
    assert.equal(idClaims.kyc_status, 'NONE');
    assert.equal(typeof idClaims.auth_time, 'number');

    const jwks = createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(tokens.access_token, jwks, {
      issuer,
      audience: client.client_id,
      currentDate: t.clock.now(),
    });
    assert.equal(payload.scope, 'openid profile phone kyc');

    const info = await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub);
    assert.equal(info.phone, phone);
    assert.equal(typeof info.updated_at, 'number');
    assert.equal(info.kyc_status, 'NONE');

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token as string);
    assert.notEqual(refreshed.refresh_token, tokens.refresh_token);
    await oidc.tokenRevocation(config, refreshed.refresh_token as string);
    const dead = await fetch(`${issuer}/oauth/userinfo`, {
      headers: { authorization: `Bearer ${refreshed.access_token}` },
    });
    assert.equal(dead.status, 401, 'revoking the refresh token ends the session and its access tokens');

    // D25: a second authorization skips the PIN (SSO cookie) and the consent (remembered).
    const second = await authorizationUrl(config);
    await page.goto(second.url.href);
    await page.waitForURL((u) => u.href.startsWith(callback));
    const again = await oidc.authorizationCodeGrant(config, new URL(page.url()), {
      pkceCodeVerifier: second.verifier,
      expectedState: second.state,
      expectedNonce: second.nonce,
    });
    assert.equal(again.claims()?.sub, idClaims.sub);

    // OAuth sessions show in GET /sessions with the client's name (D15).
    const rest = await t.request('POST', '/auth/signin', { body: { phone, pin: '480715' } });
    const sessions = await t.request('GET', '/sessions', { token: rest.body.data.access_token });
    assert.ok(
      sessions.body.data.sessions.some(
        (s: { device_name: string; platform: string }) =>
          s.device_name === 'Acme Shop' && s.platform === 'web',
      ),
    );
    await context.close();
  });

  test('sign-in with phone and PIN of a REST account; a first-party public client skips consent; Deny answers access_denied', async () => {
    const user = await signUp(t);
    const signedOut = callback.replace('/callback', '/signed-out');
    const first = await register({
      first_party: true,
      token_endpoint_auth_method: 'none',
      post_logout_redirect_uris: [signedOut],
    });
    const config = await discover(first);
    const { url, verifier, state, nonce } = await authorizationUrl(config, 'openid phone');
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url.href);
    await page.getByLabel('Phone number').fill(user.phone);
    await page.getByLabel('PIN').fill('000001');
    await page.getByRole('button', { name: 'Continue' }).click();
    assert.match(await page.getByRole('alert').innerText(), /Wrong phone number or PIN/);
    await page.getByLabel('PIN').fill(user.pin);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((u) => u.href.startsWith(callback));
    const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    assert.equal(tokens.claims()?.sub, user.user.id, 'D1: one account store for both surfaces');

    const third = await register();
    const thirdConfig = await discover(third);
    const denied = await authorizationUrl(thirdConfig);
    await page.goto(denied.url.href);
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL((u) => u.href.startsWith(callback));
    const back = new URL(page.url());
    assert.equal(back.searchParams.get('error'), 'access_denied');
    assert.equal(back.searchParams.get('state'), denied.state);
    assert.equal(back.searchParams.get('iss'), issuer);

    // Logout through the discovered end_session_endpoint, with the ID token as its hint, ends the single
    // sign-on and returns to the client's registered post-logout address.
    const bye = oidc.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token as string,
      post_logout_redirect_uri: signedOut,
      state: 'bye',
    });
    await page.goto(bye.href);
    await page.waitForURL((u) => u.href.startsWith(signedOut));
    assert.equal(new URL(page.url()).searchParams.get('state'), 'bye');
    await page.goto((await authorizationUrl(config, 'openid phone')).url.href);
    await page.getByLabel('PIN').waitFor({ timeout: 5000 });
    await context.close();
  });

  test('a logout without an ID token hint asks first; "Sign out" ends the single sign-on', async () => {
    const user = await signUp(t);
    const { app, config, context, page } = await signedInOnPage(user);

    await page.goto(
      `${issuer}/authorize/logout?client_id=${app.client_id}&post_logout_redirect_uri=${callback}`,
    );
    assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Sign out?');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out').waitFor({ timeout: 5000 });
    assert.ok(page.url().startsWith(`${issuer}/authorize/logout`), 'no redirect');
    await page.goto((await authorizationUrl(config, 'openid phone')).url.href);
    await page.getByLabel('PIN').waitFor({ timeout: 5000 });
    await context.close();
  });

  test('prompt=create opens on sign-up although the browser is signed in; the new account comes back', async () => {
    const existing = await signUp(t);
    const { config, context, page } = await signedInOnPage(existing);

    const { url, verifier, state, nonce } = await authorizationUrl(config, 'openid phone', {
      prompt: 'create',
    });
    await page.goto(url.href);
    assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Create account');
    const phone = await signUpOnPage(page);
    await page.waitForURL((u) => u.href.startsWith(callback));
    const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    const claims = tokens.claims();
    assert.equal(claims?.phone, phone);
    assert.notEqual(claims?.sub, existing.user.id, 'a new account, not the signed-in one');
    await context.close();
  });

  test('a browser app on its own origin exchanges the code, reads userinfo and revokes with fetch', async () => {
    const user = await signUp(t);
    const spa = await register({ first_party: true, token_endpoint_auth_method: 'none' });
    const { url, verifier } = await authorizationUrl(await discover(spa), 'openid phone');
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url.href);
    await page.getByLabel('Phone number').fill(user.phone);
    await page.getByLabel('PIN').fill(user.pin);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((u) => u.href.startsWith(callback));
    // Now on the app's origin (another port than the issuer's): what a single-page app does next.
    const seen = await page.evaluate(
      async ({ issuer, clientId, verifier, callback }) => {
        const config = await (await fetch(`${issuer}/.well-known/openid-configuration`)).json();
        const code = new URL(location.href).searchParams.get('code') as string;
        // (no helper functions in here: the page runs this code as it is, without the test's loader)
        const tokens = await (
          await fetch(config.token_endpoint, {
            method: 'POST',
            body: new URLSearchParams({
              grant_type: 'authorization_code',
              code,
              redirect_uri: callback,
              client_id: clientId,
              code_verifier: verifier,
            }),
          })
        ).json();
        const userinfo = await fetch(config.userinfo_endpoint, {
          headers: { authorization: `Bearer ${tokens.access_token}` },
        });
        const claims = await userinfo.json();
        const revoked = await fetch(config.revocation_endpoint, {
          method: 'POST',
          body: new URLSearchParams({ token: tokens.refresh_token, client_id: clientId }),
        });
        const after = await fetch(config.userinfo_endpoint, {
          headers: { authorization: `Bearer ${tokens.access_token}` },
        });
        return {
          phone: claims.phone,
          revoked: revoked.status,
          after: after.status,
          challenge: after.headers.get('www-authenticate'),
        };
      },
      { issuer, clientId: spa.client_id, verifier, callback },
    );
    assert.equal(seen.phone, user.phone);
    assert.equal(seen.revoked, 200);
    assert.equal(seen.after, 401);
    assert.match(String(seen.challenge), /invalid_token/, 'an exposed header');
    await context.close();
  });

  test('the page sends CSP, frame-ancestors and no-referrer headers, and refuses a form without its CSRF token', async () => {
    const client = await register();
    const { url } = await authorizationUrl(await discover(client));
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    const html = await res.text();
    const state = /name="state" value="([^"]+)"/.exec(html)?.[1] as string;
    const forged = await fetch(`${issuer}/authorize/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ state, csrf: 'guess', phone: '+14155550100', pin: '482916' }),
    });
    assert.equal(forged.status, 400);
    assert.match(await forged.text(), /did not come from this page/);
  });
});
