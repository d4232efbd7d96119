import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createTestApp, events, type SignedUp, signUp, type TestApp } from '../helpers/app.ts';
import { SoftAuthenticator } from '../helpers/authenticator.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { freePort } from '../helpers/free-port.ts';
import { sample } from '../helpers/metrics.ts';

const ADMIN_TOKEN = 'passkeys-admin-token-0123456789abcdef';
const METRICS_TOKEN = 'passkeys-metrics-token-0123456789abc';

describe('operators and passkeys: the admin API, the console, the metrics', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let page: Page;
  before(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // The hosted pages' origin is the one the software authenticator signs for.
    t = await createTestApp({ env: { ADMIN_TOKEN, METRICS_TOKEN, BASE_URL: base } });
    await t.app.listen({ port, host: '127.0.0.1' });
    browser = await launchBrowser();
    page = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const admin = (method: string, url: string) =>
    t.request(method, `/admin/v1${url}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });

  /** An account with one passkey and a set of recovery codes; the passkey signed in once. */
  async function withPasskey(): Promise<{ s: SignedUp; key: SoftAuthenticator }> {
    const s = await signUp(t);
    const key = new SoftAuthenticator(base, { synced: true });
    const options = await t.request('POST', '/passkeys/registration/options', { token: s.access_token });
    assert.equal(options.status, 200, JSON.stringify(options.body));
    const kept = await t.request('POST', '/passkeys/registration', {
      token: s.access_token,
      body: { response: key.create(options.body.data), name: 'Pixel' },
    });
    assert.equal(kept.status, 200, JSON.stringify(kept.body));
    await t.request('POST', '/users/me/recovery-codes', { token: s.access_token, body: { pin: s.pin } });
    return { s, key };
  }

  test('the admin API lists an account’s passkeys and removes one, kept in the trail', async () => {
    const { s } = await withPasskey();
    const listed = await admin('GET', `/users/${s.user.id}/passkeys`);
    assert.equal(listed.status, 200);
    assert.equal(listed.body.data.length, 1);
    const [passkey] = listed.body.data;
    assert.equal(passkey.name, 'Pixel');
    assert.equal(passkey.device_type, 'multi_device');
    const detail = await admin('GET', `/users/${s.user.id}`);
    assert.deepEqual(detail.body.passkeys, listed.body.data);
    assert.equal(detail.body.recovery_codes.remaining, 10);

    assert.equal((await admin('DELETE', `/users/${s.user.id}/passkeys/${passkey.id}`)).status, 204);
    assert.equal((await admin('DELETE', `/users/${s.user.id}/passkeys/${passkey.id}`)).status, 404);
    assert.equal((await admin('GET', '/users/00000000-0000-4000-8000-000000000000/passkeys')).status, 404);
    assert.deepEqual((await admin('GET', `/users/${s.user.id}/passkeys`)).body.data, []);
    const deleted = (await events(t, 'passkey.deleted')).at(-1);
    assert.equal(deleted?.data.passkey_id, passkey.id);
    const trail = await admin('GET', '/actions?limit=5');
    assert.ok(
      trail.body.data.some(
        (a: { method: string; route: string }) =>
          a.method === 'DELETE' && a.route === '/admin/v1/users/:id/passkeys/:passkey_id',
      ),
      JSON.stringify(trail.body.data),
    );
  });

  test('the console’s user page lists passkeys (Remove works) and says whether recovery codes exist', async () => {
    const { s } = await withPasskey();
    const bare = await signUp(t);
    await page.goto(`${base}/console`);
    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Sign in' }).click()]);
    await page.goto(`${base}/console/users/${bare.user.id}`);
    assert.equal(await page.locator('#recovery-codes').textContent(), 'No recovery codes.');
    await page.goto(`${base}/console/users/${s.user.id}`);
    assert.match((await page.locator('#recovery-codes').textContent()) ?? '', /10 of 10 left/);
    const row = page.getByRole('row').filter({ hasText: 'Pixel' });
    assert.match((await row.textContent()) ?? '', /synced/);
    await Promise.all([page.waitForLoadState('load'), row.getByRole('button', { name: 'Remove' }).click()]);
    // A removal asks once more; nothing is removed until the second press.
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Are you sure?');
    assert.equal((await admin('GET', `/users/${s.user.id}/passkeys`)).body.data.length, 1);
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Remove' }).click()]);
    assert.equal(await page.getByRole('status').textContent(), 'Passkey removed.');
    assert.equal(await page.getByRole('row').filter({ hasText: 'Pixel' }).count(), 0);
    assert.equal((await admin('GET', `/users/${s.user.id}/passkeys`)).body.data.length, 0);
  });

  test('sign-ins are counted by method', async () => {
    const scrape = async () =>
      (await t.request('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;
    const count = async (method: string) =>
      sample(String(await scrape()), 'callsign_signins_total', { method }) ?? 0;
    const before = {
      pin: await count('pin'),
      passkey: await count('passkey'),
      recovery: await count('recovery_code'),
    };
    const { s, key } = await withPasskey();
    assert.equal(
      (await t.request('POST', '/auth/signin', { body: { phone: s.phone, pin: s.pin } })).status,
      200,
    );
    const options = await t.request('POST', '/auth/passkey/options', { body: {} });
    const signedIn = await t.request('POST', '/auth/passkey/verify', {
      body: { response: key.get(options.body.data) },
    });
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
    const codes = await t.request('POST', '/users/me/recovery-codes', {
      token: signedIn.body.data.access_token,
      body: null,
    });
    const reset = await t.request('POST', '/auth/pin/reset', {
      body: { phone: s.phone, recovery_code: codes.body.data.codes[0], pin: '736251' },
    });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    assert.equal(await count('pin'), before.pin + 1);
    assert.equal(await count('passkey'), before.passkey + 1);
    assert.equal(await count('recovery_code'), before.recovery + 1);
  });
});
