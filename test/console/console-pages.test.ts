import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { phoneRiskRepo } from '../../src/storage/repositories/phone-risk.ts';
import { createTestApp, openSessions, signUp, type TestApp, uniquePhone } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { freePort } from '../helpers/free-port.ts';
import { documentPhoto, initiate, submitForm, validFields } from '../helpers/kyc.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

// Issue 8: every page of the console in a real Chromium with JavaScript off; a screenshot of each lands in
// test-artifacts/console (git-ignored).
const ADMIN_TOKEN = 'console-admin-token-0123456789abcdef';
const SHOTS = new URL('../../test-artifacts/console/', import.meta.url).pathname;

describe('the operator console at /console (issue 8), page by page, JavaScript off', () => {
  let t: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let base: string;
  let shot = 0;
  const snap = async (name: string) => {
    shot += 1;
    await page.screenshot({ path: `${SHOTS}${String(shot).padStart(2, '0')}-${name}.png`, fullPage: true });
  };
  const heading = () => page.getByRole('heading', { level: 1 }).textContent();
  const notice = () => page.getByRole('status').textContent();
  const submit = (name: string) =>
    Promise.all([
      page.waitForLoadState('load'),
      page.getByRole('button', { name, exact: true }).first().click(),
    ]);

  before(async () => {
    rmSync(SHOTS, { recursive: true, force: true });
    mkdirSync(SHOTS, { recursive: true });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({
      env: {
        ADMIN_TOKEN,
        BASE_URL: base,
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        RATE_LIMITS: 'verify_page_address=100000/60',
      },
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    browser = await launchBrowser();
    context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await t?.close();
  });

  test('sign-in with the admin token: a wrong one is refused; the session cookie is HttpOnly and SameSite=Strict', async () => {
    await page.goto(`${base}/console`);
    assert.equal(new URL(page.url()).pathname, '/console/signin');
    await page.getByLabel('Admin token').fill('not-the-token');
    await submit('Sign in');
    assert.match((await page.getByRole('alert').textContent()) ?? '', /not the admin token/);
    await snap('signin-refused');
    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await submit('Sign in');
    assert.equal(new URL(page.url()).pathname, '/console');
    const [cookie] = (await context.cookies()).filter((c) => c.name === 'callsign_console');
    assert.ok(cookie);
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Strict');
    assert.equal(cookie.path, '/console');
    assert.notEqual(cookie.value, ADMIN_TOKEN, 'the browser holds a session id, not the token');
  });

  test('a form posted without its CSRF token is refused', async () => {
    const [cookie] = (await context.cookies()).filter((c) => c.name === 'callsign_console');
    const res = await t.app.inject({
      method: 'POST',
      url: '/console/api-keys',
      headers: {
        cookie: `callsign_console=${cookie.value}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'name=forged',
    });
    assert.equal(res.statusCode, 403);
    const keys = (await t.request('GET', '/admin/v1/api-keys', { token: ADMIN_TOKEN })).body.data;
    assert.ok(!keys.some((k: { name: string }) => k.name === 'forged'));
  });

  test('overview: four charts of the last 24 hours and the active sessions', async () => {
    await signUp(t);
    await page.goto(`${base}/console`);
    assert.equal(await heading(), 'Overview');
    for (const label of ['Sign-ups', 'Sign-ins (sessions opened)', 'OTP sends', 'Webhook failures'])
      assert.equal(
        await page
          .getByRole('img', { name: new RegExp(`^${label.replace(/[()]/g, '\\$&')} per hour`) })
          .count(),
        1,
        label,
      );
    assert.match((await page.getByRole('figure').first().textContent()) ?? '', /Sign-ups: 1/);
    assert.equal(await page.locator('#active-sessions').textContent(), '1');
    await snap('overview');
  });

  test('clients: register (the secret shown once), edit redirect URIs, scopes, first party and logout URI, delete', async () => {
    await page.goto(`${base}/console/clients`);
    await page.getByLabel('Name').fill('Acme Shop');
    await page.getByLabel('Redirect URIs (one per line)').fill('https://shop.example/cb');
    await page.getByLabel('kyc').check();
    await submit('Register');
    assert.equal(await heading(), 'Client registered');
    const secret = await page.locator('#secret').textContent();
    assert.ok(secret && secret.length >= 43);
    const clientId = (await page.locator('#client-id').textContent()) as string;
    await snap('client-registered');

    await page.goto(`${base}/console/clients`);
    assert.ok(!(await page.content()).includes(secret as string), 'the list never shows a secret');
    await snap('clients');
    await page.getByRole('link', { name: 'Acme Shop' }).click();
    await page
      .getByLabel('Redirect URIs (one per line)')
      .fill('https://shop.example/cb\nhttps://shop.example/cb2');
    await page.getByLabel('First party (skips the consent screen)').check();
    await page.getByLabel('email').check();
    await page.getByLabel(/Back-channel logout URI/).fill('https://shop.example/logout');
    await page.getByLabel(/Post-logout redirect URIs/).fill('https://shop.example/bye');
    await page.getByLabel('Privacy policy URL').fill('https://shop.example/privacy');
    await page.getByLabel('Brand colour (#rrggbb)').fill('#0F766E');
    await submit('Save');
    assert.equal(await notice(), 'Saved.');
    await snap('client-edit');
    const saved = (await t.request('GET', `/admin/v1/clients/${clientId}`, { token: ADMIN_TOKEN })).body;
    assert.deepEqual(saved.redirect_uris, ['https://shop.example/cb', 'https://shop.example/cb2']);
    assert.equal(saved.first_party, true);
    assert.equal(saved.backchannel_logout_uri, 'https://shop.example/logout', 'P109');
    assert.deepEqual(saved.post_logout_redirect_uris, ['https://shop.example/bye']);
    assert.deepEqual([saved.policy_uri, saved.brand_color], ['https://shop.example/privacy', '#0f766e']);
    assert.match(await page.content(), /Secret \(HTTP Basic\)/, 'the authentication method in words');
    assert.equal(
      await page.getByLabel(/Back-channel logout URI/).inputValue(),
      'https://shop.example/logout',
    );
    assert.equal(saved.scope, 'openid profile phone email kyc');

    // P109: the logouts the client was sent; one it missed past the last retry is sent again from here.
    assert.equal(await page.getByRole('heading', { name: 'Back-channel logouts' }).count(), 1);
    assert.match(await page.content(), /No back-channel logouts\./);
    const sessionId = '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b';
    await t.c.db.query(
      `INSERT INTO backchannel_logouts (id, client_id, session_id, user_id, status, attempts, last_status_code,
         last_error, created_at)
       VALUES (gen_random_uuid(), $1, $2, gen_random_uuid(), 'failed', 6, 503, 'receiver answered 503', $3)`,
      [clientId, sessionId, t.clock.now()],
    );
    await page.reload();
    const logout = page.getByRole('row', { name: new RegExp(sessionId) });
    assert.match((await logout.textContent()) ?? '', /failed\s*6\s*–\s*503\s*receiver answered 503/);
    await snap('client-logouts');
    await submit('Send again');
    assert.equal(await notice(), 'Logout queued again.');
    assert.match((await logout.textContent()) ?? '', /pending\s*0/);
    await page.getByRole('link', { name: 'failed' }).click();
    assert.equal(
      await page.getByRole('row', { name: new RegExp(sessionId) }).count(),
      0,
      'filtered by status',
    );

    await page.getByLabel('Redirect URIs (one per line)').fill('http://evil.example/cb');
    await submit('Save');
    assert.match((await page.getByRole('alert').textContent()) ?? '', /https/);
    assert.equal(
      await page.getByRole('row', { name: new RegExp(sessionId) }).count(),
      1,
      'the page shown with the error keeps the log',
    );

    await submit('Delete client');
    // A danger action asks once more, and does nothing until it is pressed again.
    assert.equal(await heading(), 'Are you sure?');
    assert.equal(
      (await t.request('GET', `/admin/v1/clients/${clientId}`, { token: ADMIN_TOKEN })).status,
      200,
    );
    await submit('Delete client');
    assert.equal(await notice(), 'Client deleted; its sessions ended.');
    assert.equal(
      (await t.request('GET', `/admin/v1/clients/${clientId}`, { token: ADMIN_TOKEN })).status,
      404,
    );
  });

  test('clients: an initial access token for clients that register themselves, shown once', async () => {
    await page.goto(`${base}/console/clients`);
    await page.getByLabel('Registrations it allows').fill('2');
    await submit('Make an initial access token');
    assert.equal(await heading(), 'Initial access token');
    const token = (await page.locator('#secret').textContent()) as string;
    assert.match(token, /^cit_/);
    const registered = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Agent', redirect_uris: ['https://agent.example/cb'] }),
    });
    assert.equal(registered.status, 201);
  });

  test('API keys: create (shown once), list with prefix and last use, revoke', async () => {
    await page.goto(`${base}/console/api-keys`);
    await page.getByLabel('Name').fill('backend');
    await submit('Create');
    const key = (await page.locator('#secret').textContent()) as string;
    assert.match(key, /^csk_/);
    await snap('api-key-created');
    await t.request('GET', '/api/v1/users?phone=%2B16505550000', { token: key });
    await page.goto(`${base}/console/api-keys`);
    const row = page.getByRole('row', { name: /backend/ });
    assert.match((await row.textContent()) ?? '', new RegExp(`${key.slice(0, 12)}…`));
    assert.doesNotMatch((await row.textContent()) ?? '', /–\s*active/, 'last used is shown');
    await snap('api-keys');
    await submit('Revoke backend');
    await submit('Revoke');
    assert.equal(await notice(), 'API key revoked.');
    assert.match((await page.getByRole('row', { name: /backend/ }).textContent()) ?? '', /revoked/);
  });

  test('webhooks: add, edit events, disable and enable, send a test event, delivery log, replay, roll, delete', async () => {
    const receiver = new WebhookReceiver();
    const url = await receiver.start();
    try {
      await page.goto(`${base}/console/webhooks`);
      await page.getByLabel('URL').fill(url);
      await page.getByLabel('Description').fill('CRM');
      await submit('Add endpoint');
      assert.equal(await heading(), 'Endpoint added');
      const first = (await page.locator('#secret').textContent()) as string;
      assert.match(first, /^whsec_/);
      await snap('webhook-added');
      await page.getByRole('link', { name: 'Back to the endpoint' }).click();

      await page.getByLabel('All events').uncheck();
      await page.getByLabel('user.created').check();
      await page.getByLabel('Enabled').uncheck();
      await submit('Save');
      const id = new URL(page.url()).pathname.split('/').pop() as string;
      let saved = (await t.request('GET', `/admin/v1/webhook-endpoints/${id}`, { token: ADMIN_TOKEN })).body;
      assert.deepEqual(saved.events, ['user.created']);
      assert.equal(saved.enabled, false);
      await page.getByLabel('Enabled').check();
      await submit('Save');
      saved = (await t.request('GET', `/admin/v1/webhook-endpoints/${id}`, { token: ADMIN_TOKEN })).body;
      assert.equal(saved.enabled, true);

      await submit('Send test event');
      assert.match((await notice()) ?? '', /Test event queued/);
      assert.match((await page.getByRole('row', { name: /webhook\.test/ }).textContent()) ?? '', /pending/);
      await t.c.deliveries.deliverDue();
      await page.reload();
      const log = (await page.getByRole('row', { name: /webhook\.test/ }).textContent()) ?? '';
      assert.match(log, /delivered/);
      assert.match(log, /204/);
      assert.match(log, /\d+ ms/);
      await snap('webhook-endpoint');
      await submit('Replay');
      assert.match((await notice()) ?? '', /same event id/);
      await t.c.deliveries.deliverDue();
      assert.equal(receiver.received.length, 2);
      assert.equal(JSON.parse(receiver.received[1].body).id, JSON.parse(receiver.received[0].body).id);

      await submit('Roll secret');
      assert.equal(await heading(), 'Secret rolled');
      assert.notEqual(await page.locator('#secret').textContent(), first);
      assert.match((await page.locator('main').textContent()) ?? '', /previous secret also signs until/);
      await page.getByRole('link', { name: 'Back to the endpoint' }).click();
      await submit('Delete endpoint');
      await submit('Delete endpoint');
      assert.equal(await notice(), 'Endpoint deleted.');
      await snap('webhooks');
    } finally {
      await receiver.close();
    }
  });

  test('KYC review: the queue, the data and the photos, approve, reject with a reason', async () => {
    const a = await signUp(t, { name: 'Ada' });
    const b = await signUp(t, { name: 'Bob' });
    for (const s of [a, b])
      await submitForm(t, await initiate(t, s.access_token), validFields(), [await documentPhoto()]);
    await page.goto(`${base}/console/kyc`);
    assert.equal(await page.getByRole('link', { name: 'Review', exact: true }).count(), 2);
    await snap('kyc-queue');
    await page.getByRole('link', { name: 'Review', exact: true }).first().click();
    const photo = page.getByRole('img', { name: 'document photo' });
    assert.equal(await photo.count(), 1);
    const served = await page.request.get(
      new URL((await photo.getAttribute('src')) as string, base).toString(),
    );
    assert.equal(served.status(), 200);
    assert.equal(served.headers()['content-type'], 'image/jpeg');
    await snap('kyc-review');
    await submit('Approve');
    assert.equal(await notice(), 'Verification approved.');
    await page.getByRole('link', { name: 'Review', exact: true }).click();
    await page.getByLabel('Reason').selectOption('document_expired');
    await page.getByLabel('Message to the user').fill('Your passport has expired.');
    await submit('Reject');
    assert.equal(await notice(), 'Verification rejected.');
    assert.match((await page.locator('main').textContent()) ?? '', /Nothing waits for review/);
    const statuses = await Promise.all(
      [a, b].map(
        async (s) => (await t.request('GET', '/kyc/status', { token: s.access_token })).body.data.status,
      ),
    );
    assert.deepEqual(statuses.sort(), ['rejected', 'verified']);
  });

  test('users: find by phone, see profile, sessions and KYC, revoke a session, lock and unlock', async () => {
    t.clock.advance(1);
    const s = await signUp(t, { name: 'Lin' });
    await page.goto(`${base}/console/users`);
    // Before any search: the newest accounts, this one first.
    assert.equal(await page.getByRole('heading', { name: 'Newest accounts' }).count(), 1);
    assert.equal(await page.locator('tbody tr:first-child a').textContent(), `@${s.handle}`);
    await page.getByLabel('Phone number, handle, name, user id or imported id').fill(s.phone);
    await submit('Find');
    await snap('users-search');
    await page.getByRole('link', { name: `@${s.handle}` }).click();
    assert.equal(await heading(), `@${s.handle}`);
    assert.match((await page.locator('main').textContent()) ?? '', /KYCnone/);
    assert.match((await page.locator('main').textContent()) ?? '', /Language–/, 'no language set: a dash');
    await snap('user');
    // Each session with its application and its network, not the device's own address.
    const session = (await page.getByRole('row').filter({ hasText: 'callsign' }).first().textContent()) ?? '';
    // And how its sign-in was proven.
    assert.match(session, /callsign\s*a code by SMS\s*\d+\.\d+\.\d+\.0\/24/);
    await submit('Revoke');
    assert.equal(await heading(), 'Are you sure?');
    await submit('Revoke');
    assert.equal(await notice(), 'Session revoked.');
    assert.equal((await t.request('GET', '/users/me', { token: s.access_token })).status, 401);
    await submit('Lock account');
    await submit('Lock account');
    assert.equal(await notice(), 'Account locked; its sessions ended.');
    assert.match((await page.locator('main').textContent()) ?? '', /Locked by an operator/);
    const refused = await t.request('POST', '/auth/signin', { body: { phone: s.phone, pin: s.pin } });
    assert.equal(refused.body.error.code, 'ACCOUNT_LOCKED');
    await submit('Unlock');
    assert.equal(await notice(), 'Account unlocked.');
    assert.equal(
      (await t.request('POST', '/auth/signin', { body: { phone: s.phone, pin: s.pin } })).status,
      200,
    );
    await page.goto(`${base}/console/users?q=${encodeURIComponent(`@${s.handle}`)}`);
    assert.equal(await page.getByRole('link', { name: `@${s.handle}` }).count(), 1);
  });

  test("an account's page lists its 100 most recently used sessions and says how many there are", async () => {
    const s = await signUp(t);
    await page.goto(`${base}/console/users/${s.user.id}`);
    assert.equal(await page.locator('#sessions-shown').count(), 0, 'all shown: nothing to say');
    await openSessions(t, s.user.id, 100);
    await page.goto(`${base}/console/users/${s.user.id}`);
    assert.equal(
      await page.locator('#sessions-shown').textContent(),
      'The 100 most recently used of 101 active sessions.',
    );
    assert.equal(await page.getByRole('button', { name: 'Revoke', exact: true }).count(), 100);
  });

  test('an account’s page lists the applications it allowed, each linked to its client', async () => {
    const s = await signUp(t);
    await page.goto(`${base}/console/users/${s.user.id}`);
    assert.match((await page.locator('main').textContent()) ?? '', /No application allowed/);
    const shop = await t.request('POST', '/admin/v1/clients', {
      token: ADMIN_TOKEN,
      body: {
        client_name: 'Corner Shop',
        redirect_uris: ['https://shop.example/cb'],
        scope: 'openid profile',
      },
    });
    await t.c.authorization.rememberConsent(s.user.id, shop.body.client_id, 'openid profile');
    await page.goto(`${base}/console/users/${s.user.id}`);
    const row = page.getByRole('row').filter({ hasText: 'Corner Shop' });
    assert.match((await row.textContent()) ?? '', /openid profile/);
    await row.getByRole('link', { name: 'Corner Shop' }).click();
    assert.equal(await heading(), 'Client: Corner Shop');
  });

  test('phone number checks: the latest answers, the recycled flag, and a clearance for 24 hours', async () => {
    const s = await signUp(t);
    const at = t.clock.now();
    await phoneRiskRepo.record(t.c.db, {
      ...{ id: t.c.random.uuid(), user_id: s.user.id, phone: s.phone, provider: 'camara' },
      ...{ check_kind: 'sim_swap', outcome: 'swapped', detail: null, last_swap_at: at, checked_at: at },
    });
    await phoneRiskRepo.flagRecycled(t.c.db, s.user.id, at);
    await page.goto(`${base}/console/users/${s.user.id}`);
    const section = (await page.locator('main').textContent()) ?? '';
    assert.match(section, /Phone number checks/);
    assert.match(section, /Flagged:/);
    assert.match(
      (await page.getByRole('row').filter({ hasText: 'camara' }).textContent()) ?? '',
      /sim_swap\s*swapped/,
    );
    await submit('Clear for 24 hours');
    assert.match((await notice()) ?? '', /skip the SIM checks for 24 hours/);
    assert.match((await page.locator('main').textContent()) ?? '', /Cleared by an operator until/);
    assert.doesNotMatch((await page.locator('main').textContent()) ?? '', /Flagged:/);
    await snap('user-phone-checks');
  });

  test('actions: what the console and the admin API did, newest first, fifty a page', async () => {
    await page.goto(`${base}/console/actions`);
    assert.equal(await heading(), 'Actions');
    // The P73 test's look at an account, made through this console.
    const look = page.getByRole('row', { name: /GET \/users\/:id/ }).first();
    assert.match((await look.textContent()) ?? '', /console,\s*127\.0\.0\.1/);
    // The KYC review test's looks at a verification and at its document photos.
    for (const route of [/GET \/kyc\/verifications\/:id\s/, /GET \/kyc\/verifications\/:id\/photos\/:photo/])
      assert.ok(await page.getByRole('row', { name: route }).count(), String(route));
    await snap('actions');
    // At 1280 px no word of the table breaks across lines, and the table fits the page.
    const layout = await page.evaluate(() => {
      const cells = [...document.querySelectorAll<HTMLElement>('main td')];
      const split = [...document.querySelectorAll('main td code')].filter(
        (code) => code.getClientRects().length > 1,
      );
      const box = document.querySelector<HTMLElement>('main .table');
      return {
        breaking: cells.filter((td) => getComputedStyle(td).overflowWrap !== 'normal').length,
        split: split.map((code) => code.textContent),
        overflow: box ? box.scrollWidth - box.clientWidth : 0,
      };
    });
    assert.deepEqual(layout, { breaking: 0, split: [], overflow: 0 });
    // Fifty changes through the admin API push it to the second page.
    for (let i = 0; i < 50; i++)
      await t.request('POST', '/admin/v1/api-keys', { token: ADMIN_TOKEN, body: { name: `batch ${i}` } });
    await page.goto(`${base}/console/actions`);
    assert.equal(await page.getByRole('row', { name: /admin API/ }).count(), 50);
    await Promise.all([
      page.waitForLoadState('load'),
      page.getByRole('link', { name: 'Older actions' }).click(),
    ]);
    assert.ok(await page.getByRole('row', { name: /GET \/users\/:id/ }).count());
    assert.equal((await page.goto(`${base}/console/actions?before=x`))?.status(), 400);
    assert.match((await page.getByRole('alert').textContent()) ?? '', /before must be the id of an action/);
  });

  test('SMS traffic: codes per country, the last 24 hours drawn, a breaker held and given back', async () => {
    await signUp(t); // a code to a US number, just now
    await page.goto(`${base}/console/sms`);
    assert.equal(await heading(), 'SMS traffic');
    const us = () => page.getByRole('table').first().getByRole('row', { name: /^US/ }).textContent();
    assert.match((await us()) ?? '', /closed.*by traffic/);
    // The week's cost and a chart of the US; then codes sent and entered per hour.
    assert.equal(await page.locator('svg[role="img"]').count(), 4);
    await submit('US: hold open');
    assert.match((await notice()) ?? '', /US: held open/);
    assert.match((await us()) ?? '', /open.*held open/);
    await snap('sms-traffic');
    await submit('US: by traffic');
    assert.match((await notice()) ?? '', /decided by its traffic again/);
  });

  test('SMS traffic counts the sends a limit on codes refused, by the number’s country', async () => {
    const refusedOf = async () => {
      const res = await t.request('GET', '/admin/v1/sms/countries', { token: ADMIN_TOKEN });
      const us = res.body.data.find((c: { country: string }) => c.country === 'US');
      return us?.last_hour.refused.rate_limited ?? 0;
    };
    const before = await refusedOf();
    const phone = uniquePhone();
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push(
        (await t.request('POST', '/auth/otp/send', { body: { phone, purpose: 'signup' } })).status,
      );
    assert.deepEqual(statuses, [200, 200, 200, 429]);
    assert.equal(await refusedOf(), before + 1);
  });

  test('Messages: delivery per provider over the last day, and the latest messages with their attempts', async () => {
    await signUp(t); // a code by the test gateway, just now
    await page.goto(`${base}/console/messages`);
    assert.equal(await heading(), 'Messages');
    const provider = await page.getByRole('row', { name: /^http/ }).first().textContent();
    assert.match(provider ?? '', /^http\s*\d+\s*–\s*\d+\s*no receipts/, 'a provider that sends no receipts');
    const latest = await page
      .getByRole('row', { name: /code\s*sms\s*http/ })
      .first()
      .textContent();
    // Taken by a provider that reports no deliveries: it will not move on, and it is not undelivered.
    assert.match(latest ?? '', /\+1\*{6}\d{4}\s*code\s*sms\s*http\s*http\s*sent, no receipts/);
    await t.c.db.query("UPDATE messages SET status = 'sent' WHERE status = 'queued'");
    await page.reload();
    assert.match(
      (await page
        .getByRole('row', { name: /code\s*sms\s*http/ })
        .first()
        .textContent()) ?? '',
      /sent, no receipts/,
    );
    await snap('messages');
  });

  test('users a page at a time, narrowed by KYC status; a client secret rolled with a grace', async () => {
    const lines = Array.from({ length: 60 }, (_, i) =>
      JSON.stringify({ phone: uniquePhone(), name: `Paged ${i}` }),
    );
    const imported = await t.request('POST', '/admin/v1/users/import', {
      token: ADMIN_TOKEN,
      headers: { 'content-type': 'application/x-ndjson' },
      body: lines.join('\n'),
    });
    assert.equal(imported.body.imported, 60);
    await page.goto(`${base}/console/users?q=Paged`);
    assert.equal(await page.locator('tbody tr').count(), 50);
    await Promise.all([page.waitForLoadState('load'), page.getByRole('link', { name: 'Next page' }).click()]);
    assert.equal(await page.locator('tbody tr').count(), 10);
    assert.equal(await page.getByRole('link', { name: 'Next page' }).count(), 0);
    await page.getByLabel('KYC status').selectOption('verified');
    await submit('Find');
    assert.match((await page.locator('main').textContent()) ?? '', /No account matches\./);

    const client = (
      await t.request('POST', '/admin/v1/clients', {
        token: ADMIN_TOKEN,
        body: { client_name: 'Backend app', redirect_uris: ['https://backend.example/cb'] },
      })
    ).body;
    await page.goto(`${base}/console/clients/${client.client_id}`);
    const grace = page.getByLabel('The old secret keeps working for');
    assert.equal(await grace.inputValue(), '3600', 'an hour unless the operator chooses otherwise');
    assert.equal(await page.getByText(/still works until/).count(), 0, 'no grace runs yet');
    await submit('Roll secret');
    assert.equal(await heading(), 'Are you sure?');
    await submit('Roll secret');
    assert.equal(await heading(), 'New client secret');
    assert.notEqual(await page.locator('#secret').textContent(), client.client_secret);
    assert.match((await page.locator('main').textContent()) ?? '', /The old secret works until/);
    await page.goto(`${base}/console/clients/${client.client_id}`);
    assert.equal(await page.getByText(/The secret before the last roll still works until/).count(), 1);
    t.clock.advance(3601);
    await page.reload();
    assert.equal(await page.getByText(/still works until/).count(), 0, 'the grace has ended');
  });

  test('users: the total, and which accounts are locked and by what; a search is in the trail, named', async () => {
    const locked = await signUp(t, { name: 'Locked Lena' });
    const guessed = await signUp(t, { name: 'Guessed Gus' });
    await t.request('POST', `/admin/v1/users/${locked.user.id}/lock`, { token: ADMIN_TOKEN });
    // Locked after wrong PINs, for a quarter of an hour from now.
    await t.c.db.query('UPDATE users SET failed_pin_attempts = 10, locked_until = $1 WHERE id = $2', [
      new Date(t.clock.now().getTime() + 900_000),
      guessed.user.id,
    ]);
    await page.goto(`${base}/console/users`);
    const total = Number((await page.locator('#accounts-total').textContent())?.replace(/\D/g, ''));
    const counted = await t.c.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM users WHERE deleted_at IS NULL',
    );
    assert.equal(total, counted[0]?.n);
    const row = (name: string) => page.getByRole('row', { name: new RegExp(name) }).textContent();
    assert.match((await row('Locked Lena')) ?? '', /by an operator/);
    assert.match((await row('Guessed Gus')) ?? '', /wrong PINs, until/);

    await page.getByLabel('Phone number, handle, name, user id or imported id').fill('Locked Lena');
    await submit('Find');
    await page.goto(`${base}/console/actions`);
    const search = page.getByRole('row', { name: /GET \/users\s/ }).first();
    assert.match((await search.textContent()) ?? '', /search “Locked Lena”/);
    await page.goto(`${base}/console/users/${locked.user.id}`);
    await page.goto(`${base}/console/actions`);
    const look = page.getByRole('row', { name: /GET \/users\/:id\s/ }).first();
    assert.match((await look.textContent()) ?? '', new RegExp(`account @${locked.user.handle}`));
    assert.equal(
      await look.getByRole('link', { name: `@${locked.user.handle}` }).getAttribute('href'),
      `/console/users/${locked.user.id}`,
    );
  });

  test('sign-out ends the session: the console asks for the token again', async () => {
    await page.goto(`${base}/console`);
    await submit('Sign out');
    assert.equal(new URL(page.url()).pathname, '/console/signin');
    await page.goto(`${base}/console/clients`);
    assert.equal(new URL(page.url()).pathname, '/console/signin');
    assert.equal((await t.c.db.query('SELECT 1 FROM console_sessions')).length, 0);
    await snap('signed-out');
  });
});

describe('console cookies and availability', () => {
  test('behind https the session cookie is Secure and __Host-; without ADMIN_TOKEN there is no console', async () => {
    const t = await createTestApp({ env: { ADMIN_TOKEN, BASE_URL: 'https://id.example.com' } });
    const off = await createTestApp();
    try {
      const form = await t.app.inject({ method: 'GET', url: '/console/signin' });
      const csrfCookie = String(form.headers['set-cookie']).split(';')[0];
      assert.match(String(form.headers['set-cookie']), /Secure/);
      const csrf = /name="csrf" value="([^"]+)"/.exec(form.body)?.[1] ?? '';
      const signedIn = await t.app.inject({
        method: 'POST',
        url: '/console/signin',
        headers: { cookie: csrfCookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ csrf, token: ADMIN_TOKEN }).toString(),
      });
      assert.equal(signedIn.statusCode, 303);
      const session = ([] as string[])
        .concat(signedIn.headers['set-cookie'] as string[])
        .find((c) => c.startsWith('__Host-callsign_console='));
      assert.match(session ?? '', /HttpOnly/);
      assert.match(session ?? '', /Secure/);
      assert.match(session ?? '', /SameSite=Strict/);
      assert.equal((await off.app.inject({ method: 'GET', url: '/console' })).statusCode, 404);
    } finally {
      await t.close();
      await off.close();
    }
  });
});
