import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/config.ts';
import { createTestApp, signUp, type TestApp, uniqueIp } from '../helpers/app.ts';

// Toll-fraud defence, where codes may go: countries allowed and blocked, number types refused, and at most 10
// requests for codes an hour to one block of 1,000 consecutive numbers, on every path that sends a code; the
// configured test numbers are exempt.

const US_PREMIUM = '+19002345678';
const US_TOLL_FREE = '+18002345678';
const GB_MOBILE = '+447911123456';
const NG_MOBILE = '+2348031234567';
const IN_MOBILE = '+919876543210';
const TEST_PREMIUM = '+19002345679';

const send = (t: TestApp, phone: string, ip = uniqueIp()) =>
  t.request('POST', '/auth/otp/send', { body: { phone, purpose: 'signup' }, ip });

/** Nothing reached the SMS provider for the number, and no code was stored. */
async function nothingSent(t: TestApp, phone: string) {
  assert.deepEqual(t.sms.messagesTo(phone), []);
  assert.equal((await t.c.db.query('SELECT 1 FROM otps WHERE phone = $1', [phone])).length, 0);
}

describe('where codes may go', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({
      env: {
        SMS_ALLOWED_COUNTRIES: 'US, IN, NG',
        SMS_BLOCKED_COUNTRIES: 'ng',
        TEST_PHONE_NUMBERS: `${TEST_PREMIUM}=000000`,
      },
    });
  });
  after(() => t.close());

  test('a country outside the allow list, or on the block list, is refused by name; nothing is sent', async () => {
    for (const phone of [GB_MOBILE, NG_MOBILE]) {
      const res = await send(t, phone);
      assert.equal(res.status, 400, phone);
      assert.equal(res.body.error.code, 'INVALID_PHONE');
      assert.deepEqual(res.body.error.details, { field: 'phone', reason: 'country_not_allowed' });
      await nothingSent(t, phone);
    }
    assert.equal((await send(t, IN_MOBILE)).status, 200);
    assert.equal(t.sms.messagesTo(IN_MOBILE).length, 1);
  });

  test('premium-rate numbers are refused by default; toll-free ones are not', async () => {
    const res = await send(t, US_PREMIUM);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.error.details, { field: 'phone', reason: 'number_type_not_allowed' });
    await nothingSent(t, US_PREMIUM);
    assert.equal((await send(t, US_TOLL_FREE)).status, 200);
  });

  test('a configured test number is exempt', async () => {
    assert.equal((await send(t, TEST_PREMIUM)).status, 200);
  });

  test('a phone change to a refused number is refused the same way', async () => {
    const user = await signUp(t);
    const res = await t.request('POST', '/users/me/phone', {
      token: user.access_token,
      body: { phone: US_PREMIUM },
      ip: uniqueIp(),
    });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.error.details, { field: 'phone', reason: 'number_type_not_allowed' });
  });
});

describe('SMS_BLOCKED_NUMBER_TYPES replaces the default list', () => {
  test('toll-free refused, premium-rate allowed', async () => {
    const t = await createTestApp({ env: { SMS_BLOCKED_NUMBER_TYPES: 'TOLL_FREE' } });
    try {
      assert.equal((await send(t, US_TOLL_FREE)).body.error?.details.reason, 'number_type_not_allowed');
      assert.equal((await send(t, US_PREMIUM)).status, 200);
    } finally {
      await t.close();
    }
  });

  test('unknown countries and types stop the start with their names', () => {
    assert.throws(
      () => loadConfig({ SMS_ALLOWED_COUNTRIES: 'US,XX', SMS_BLOCKED_NUMBER_TYPES: 'MOBILE,PREMIUM' }),
      (err: unknown) =>
        err instanceof ConfigError &&
        err.problems.some((p) => p.includes('SMS_ALLOWED_COUNTRIES') && p.includes('"XX"')) &&
        err.problems.some((p) => p.includes('SMS_BLOCKED_NUMBER_TYPES') && p.includes('"PREMIUM"')),
    );
  });
});

describe('codes to one block of 1,000 numbers', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { TEST_PHONE_NUMBERS: '+16503001500=000000' } });
  });
  after(() => t.close());

  test('ten an hour go to one block, from any addresses; the eleventh is RATE_LIMITED; other blocks go on', async () => {
    for (let i = 0; i < 10; i++)
      assert.equal((await send(t, `+165030010${String(i).padStart(2, '0')}`)).status, 200);
    const over = await send(t, '+16503001099');
    assert.equal(over.status, 429);
    assert.equal(over.body.error.code, 'RATE_LIMITED');
    // The headers and details describe the limit that refused (10 an hour to the block), not the per-phone 3.
    assert.equal(over.body.error.details.scope, 'otp_send_prefix');
    assert.equal(over.headers['x-ratelimit-limit'], '10');
    assert.equal(over.headers['x-ratelimit-remaining'], '0');
    const now = t.clock.now().getTime();
    const hourEnd = Math.floor(now / 3_600_000) * 3_600_000 + 3_600_000;
    assert.equal(over.headers['x-ratelimit-reset'], String(hourEnd / 1000));
    assert.equal(over.headers['retry-after'], String(Math.ceil((hourEnd - now) / 1000)));
    await nothingSent(t, '+16503001099');
    // The same block on the hosted page's and the phone change's paths is spent too.
    const user = await signUp(t);
    const change = await t.request('POST', '/users/me/phone', {
      token: user.access_token,
      body: { phone: '+16503001098' },
      ip: uniqueIp(),
    });
    assert.equal(change.status, 429);
    assert.equal((await send(t, '+16503002001')).status, 200, 'another block');
    assert.equal((await send(t, '+16503001500')).status, 200, 'a test number in the spent block');
    t.clock.advance(3600);
    assert.equal((await send(t, '+16503001097')).status, 200, 'the next hour');
  });

  test('a request its number’s limit refuses counts for the block; a refused destination and a test number do not', async () => {
    t.clock.advance(3600);
    const again = '+16503003000';
    for (let i = 0; i < 3; i++) assert.equal((await send(t, again)).status, 200);
    const refused = await send(t, again);
    assert.equal(refused.body.error.details.scope, 'otp_send_phone');
    // Never counted for the block: a number of a type codes never go to, and a test number.
    const premium = await send(t, '+19002345678');
    assert.equal(premium.body.error.details.reason, 'number_type_not_allowed');
    for (let i = 0; i < 3; i++) assert.equal((await send(t, '+16503001500')).status, 200, 'a test number');
    // Four requests counted for the block +1650300 3xxx: six more numbers, and the seventh is refused.
    for (let i = 1; i <= 6; i++) assert.equal((await send(t, `+1650300300${i}`)).status, 200);
    const over = await send(t, '+16503003007');
    assert.equal(over.body.error.details.scope, 'otp_send_prefix');
    const counted = await t.c.db.query<{ refused_prefix: number; rate_limited: number }>(
      'SELECT sum(refused_prefix)::int AS refused_prefix, sum(rate_limited)::int AS rate_limited FROM sms_country_minutes WHERE minute >= $1',
      [new Date(Math.floor(t.clock.now().getTime() / 3_600_000) * 3_600_000)],
    );
    assert.deepEqual(
      counted[0],
      { refused_prefix: 1, rate_limited: 1 },
      'each refusal counted for operators',
    );
  });
});
