import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import type { Browser, Page } from 'playwright-core';
import { SmsBreaker } from '../../src/domain/sms-defence/breaker.ts';
import { housekeeping } from '../../src/workers/housekeeping.ts';
import { createTestApp, type TestApp, uniqueIp, uniquePhone } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { freePort } from '../helpers/free-port.ts';
import { writeConfig } from '../helpers/messaging.ts';
import { ADMIN_TOKEN } from '../helpers/oauth.ts';
import { checkLook } from '../helpers/page-look.ts';
import { VendorServer } from '../helpers/vendor-server.ts';
import * as vendors from '../helpers/vendors.ts';

// The console's SMS page draws the week of codes: a scripted run over three days (honest codes to the US and
// India, then a pumping wave to the US that opens its breaker, which closes once the wave is over) is read
// back from the charts in Chromium (the console has no script), and the page passes the look checks at 360 and
// 1280 px, light and dark.

const TW_TOKEN = 'twilio-token-for-charts';
const IN_PHONES = ['+919876543201', '+919876543202', '+919876543203'];

describe('the SMS page’s charts of the week', () => {
  const tw = new VendorServer(vendors.twilio('AC1', TW_TOKEN));
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let base: string;
  before(async () => {
    const path = writeConfig({
      providers: {
        tw: {
          ...{ type: 'twilio', account_sid: 'AC1', auth_token: TW_TOKEN, from: '+15005550006' },
          ...{ api_url: await tw.start(), price: { US: 0.01, IN: 0.02 } },
        },
      },
      routes: [{ countries: ['*'], sms: ['tw'] }],
    });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({
      env: {
        ...{ SMS_PROVIDER: '', MESSAGING_CONFIG: path, ADMIN_TOKEN, BASE_URL: base },
        SMS_BREAKER: 'window=3600,min_sends=5,min_conversion=0.5,open_cap=3',
      },
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    browser = await launchBrowser();
    // The console runs no script; axe-core, run by the look checks, needs it on.
    page = await (await browser.newContext()).newPage();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await tw.close();
  });

  const send = (phone: string) =>
    t.request('POST', '/auth/otp/send', { body: { phone, purpose: 'signup' }, ip: uniqueIp() });
  const enter = async (phone: string) => {
    const text = tw.requests.filter((r) => r.form.To === phone).at(-1)?.form.Body ?? '';
    const code = /\b(\d{6})\b/.exec(text)?.[1];
    const res = await t.request('POST', '/auth/otp/verify', { body: { phone, purpose: 'signup', code } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };

  test('a week of codes: a pumping wave, its breaker’s opening, conversion and cost, drawn', async () => {
    // The run starts at 06:00 UTC, so that each of its days is a day of the charts.
    const sixAm =
      Math.ceil((t.clock.now().getTime() - 6 * 3_600_000) / 86_400_000) * 86_400_000 + 6 * 3_600_000;
    t.clock.advance((sixAm - t.clock.now().getTime()) / 1000);
    // Day 1: honest codes. 3 to the US (2 entered), 2 to India (both entered).
    const us = [uniquePhone(), uniquePhone(), uniquePhone()];
    for (const phone of [...us, IN_PHONES[0], IN_PHONES[1]]) assert.equal((await send(phone)).status, 200);
    for (const phone of [us[0], us[1], IN_PHONES[0], IN_PHONES[1]]) await enter(phone);
    // The hourly job rolls up each day's hours while the rows they come from are still there.
    const rollUp = () => t.c.codeEconomics.rollUp(t.clock.now());
    t.clock.advance(3600);
    await rollUp();
    // Day 2: a wave to the US that nobody enters; the sixth send finds the breaker open.
    t.clock.advance(86_400);
    for (let i = 0; i < 5; i++) assert.equal((await send(uniquePhone())).status, 200, `wave ${i}`);
    assert.equal((await send(uniquePhone())).body.error?.code, 'CHALLENGE_REQUIRED');
    const openedAt = t.clock.now().toISOString();
    // Two hours on the window is quiet again: the next send finds the breaker closed.
    t.clock.advance(7200);
    assert.equal((await send(uniquePhone())).status, 200);
    const closedAt = t.clock.now().toISOString();
    // Day 3: one code to India, not entered.
    t.clock.advance(3600);
    await rollUp();
    t.clock.advance(86_400 - 3 * 3600);
    assert.equal((await send(IN_PHONES[2])).status, 200);

    const openings = await t.request('GET', '/admin/v1/sms/breaker-openings', { token: ADMIN_TOKEN });
    assert.equal(openings.status, 200);
    assert.deepEqual(openings.body.data, [
      { country: 'US', opened_at: openedAt, closed_at: closedAt, by_operator: false },
    ]);

    await page.goto(`${base}/console/signin`);
    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await Promise.all([
      page.waitForURL(`${base}/console`),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    await page.goto(`${base}/console/sms`);
    const captions = await page.locator('figure figcaption').allTextContents();
    assert.deepEqual(captions.slice(0, 3), [
      'Cost: 0.15 in 7 days', // 9 codes to the US at 0.01, 3 to India at 0.02
      'US: 9 sent, 22% entered; breaker open 1 time',
      'IN: 3 sent, 67% entered',
    ]);
    const usChart = page.locator('figure', { hasText: 'US: 9 sent' });
    assert.equal(await usChart.locator('rect.open').count(), 1, 'one band where its breaker was open');
    assert.match(
      (await usChart.locator('rect.open title').textContent()) ?? '',
      new RegExp(`^breaker open: ${openedAt.slice(0, 16)} to ${closedAt.slice(0, 16)} UTC$`),
    );
    assert.equal(await usChart.locator('rect.bar.refused').count(), 1, 'the refused send stacked on its day');
    assert.equal(await usChart.locator('circle.rate').count(), 2, 'a conversion dot for each day that sent');
    assert.match((await usChart.locator('circle.rate title').first().textContent()) ?? '', /67% entered$/);
    await checkLook(page, 'console-sms-charts');
  });

  test('an opening is recorded once when two processes see it; a first look at a closed country ends one left open', async () => {
    const settings = { windowSeconds: 3600, minSends: 1_000_000, minConversion: 0.5, openCap: 3 };
    const logger = pino({ level: 'silent' });
    const [a, b] = [1, 2].map(() => new SmsBreaker({ db: t.c.db, clock: t.clock, logger, settings }));
    await t.c.smsBreaker.override('GB', 'open');
    assert.deepEqual(await Promise.all([a.isOpen('GB'), b.isOpen('GB')]), [true, true]);
    const open = (await a.openings({})).filter((o) => o.country === 'GB');
    assert.deepEqual(
      open.map((o) => [o.by_operator, o.closed_at]),
      [[true, null]],
    );
    await t.c.smsBreaker.override('GB', 'auto');
    t.clock.advance(60);
    const fresh = new SmsBreaker({ db: t.c.db, clock: t.clock, logger, settings });
    assert.equal(await fresh.isOpen('GB'), false);
    const [closed] = (await a.openings({})).filter((o) => o.country === 'GB');
    assert.deepEqual(closed.closed_at, t.clock.now());
    t.clock.advance(31 * 86_400);
    await housekeeping(t.c.db).run(t.clock.now());
    assert.deepEqual(await a.openings({ from: new Date(0) }), [], 'gone as events go');
  });
});
