import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createTestApp, signUp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { freePort } from '../helpers/free-port.ts';
import { checkLook } from '../helpers/page-look.ts';

// The console has the hosted pages' look: every page at 360x740 and 1280x800, light and dark, without
// sideways scrolling, with 44 px targets and no serious or critical axe-core finding. The console speaks
// English, the operators' language.

const ADMIN_TOKEN = 'console-look-admin-token-0123456789';

let t: TestApp;
let browser: Browser;
let page: Page;
let base: string;

before(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await createTestApp({ env: { ADMIN_TOKEN, BASE_URL: base } });
  await t.app.listen({ port, host: '127.0.0.1' });
  browser = await launchBrowser();
  page = await (await browser.newContext()).newPage();
});
after(async () => {
  await browser?.close();
  await t?.close();
});

const api = (method: string, url: string, body?: unknown) =>
  t.request(method, `/admin/v1${url}`, { token: ADMIN_TOKEN, body });

test('every console page, phone and desktop, light and dark', async () => {
  const s = await signUp(t, { name: 'Asha' });
  const shop = (
    await api('POST', '/clients', { client_name: 'Shop', redirect_uris: ['https://shop.example/cb'] })
  ).body;
  await api('POST', '/clients', {
    client_name: 'Phone app',
    redirect_uris: ['com.example.app:/cb'],
    token_endpoint_auth_method: 'none',
  });
  await api('POST', '/webhook-endpoints', { url: 'https://hooks.example/in', events: ['user.created'] });
  await api('POST', '/api-keys', { name: 'backend' });

  await page.goto(`${base}/console`);
  await checkLook(page, 'console-signin');
  await page.fill('#token', ADMIN_TOKEN);
  await Promise.all([page.waitForNavigation(), page.click('main button[type=submit]')]);

  await checkLook(page, 'console-overview');
  // Each chart: 24 hourly bars between a count axis and a time axis.
  for (const count of await page
    .locator('figure svg')
    .evaluateAll((svgs) => svgs.map((svg) => svg.querySelectorAll('rect').length)))
    assert.equal(count, 24);

  await page.goto(`${base}/console/clients`);
  assert.match(await page.locator('main').innerText(), /Public: PKCE, no secret/);
  await checkLook(page, 'console-clients');
  await page.goto(`${base}/console/clients/${shop.client_id}`);
  // The form's button sits on a line of its own, below the last field.
  const [lastField, save] = await Promise.all([
    page.locator('#brand_color').boundingBox(),
    page.locator('main form.block > button', { hasText: 'Save' }).boundingBox(),
  ]);
  assert.ok(lastField && save && save.y >= lastField.y + lastField.height, 'Save below the last field');
  await checkLook(page, 'console-client');
  for (const path of [
    'api-keys',
    'webhooks',
    'kyc',
    'users',
    `users/${s.user.id}`,
    'sms',
    'messages',
    'actions',
  ]) {
    await page.goto(`${base}/console/${path}`);
    await checkLook(page, `console-${path.split('/')[0]}${path.includes('/') ? '-one' : ''}`);
  }

  // The states a danger action and a search go through: the question asked before a deletion, the secret a
  // roll shows once, and a search with its filters.
  const press = (name: string) =>
    Promise.all([page.waitForNavigation(), page.getByRole('button', { name, exact: true }).first().click()]);
  await page.goto(`${base}/console/clients/${shop.client_id}`);
  await press('Delete client');
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Are you sure?');
  await checkLook(page, 'console-confirm');
  await page.goto(`${base}/console/clients/${shop.client_id}`);
  await press('Roll secret');
  await press('Roll secret');
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'New client secret');
  await checkLook(page, 'console-client-secret');
  await page.goto(`${base}/console/users?q=Asha&kyc_status=none&created_from=2020-01-01`);
  await checkLook(page, 'console-users-search');
  // The filters sit with the search box; the button that submits them all comes after them.
  const order = await page
    .locator('form.search')
    .evaluate((form) => [...form.querySelectorAll('input,select,button')].map((e) => e.id || e.tagName));
  assert.deepEqual(order, ['q', 'kyc_status', 'created_from', 'created_to', 'BUTTON']);
  // On a phone a table's rows stack, each cell under its column's name.
  await page.setViewportSize({ width: 360, height: 740 });
  assert.equal(
    await page
      .locator('tbody td')
      .first()
      .evaluate((td) => getComputedStyle(td).display),
    'block',
  );
  assert.equal(await page.locator('thead').evaluate((el) => el.getBoundingClientRect().height <= 1), true);
  // The hidden header, read by screen readers, keeps each of its words on one line, not one per line.
  const linesPerHeader = await page.locator('thead th').evaluateAll((ths) =>
    ths.map((th) => {
      const range = document.createRange();
      range.selectNodeContents(th);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    }),
  );
  assert.deepEqual(linesPerHeader, [1, 1, 1, 1, 1, 1]);
});
