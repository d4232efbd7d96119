import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createTestApp, type TestApp, uniqueIp } from '../helpers/app.ts';

// Numbers with no country (satellite +881 and +870, global freephone +800, ...) count under the key 001 in
// every breaker, budget, metric and operator view, and get codes only where SMS_ALLOWED_COUNTRIES names 001.

const ADMIN = 'admin-token-for-non-geographic-0123456789';
const METRICS = 'metrics-token-for-non-geographic-012345';

let made = 0;
/** An Iridium (+881 6) mobile number in a block of 1,000 of its own. */
const satellitePhone = () => `+8816123${String(45_001 + ++made * 1000).padStart(5, '0')}`;

const send = (t: TestApp, phone: string) =>
  t.request('POST', '/auth/otp/send', { body: { phone, purpose: 'signup' }, ip: uniqueIp() });

const countries = async (t: TestApp) =>
  (await t.request('GET', '/admin/v1/sms/countries', { token: ADMIN })).body.data as Array<{
    country: string;
    last_hour: { sent: number; refused: Record<string, number> };
    breaker: string;
  }>;

const metric = async (t: TestApp, series: string) => {
  const metrics = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS}` } });
  const line = metrics.body.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('numbers with no country (001)', () => {
  test('are refused by default with INVALID_PHONE, counted under 001 for the operators', async () => {
    const t = await createTestApp({ env: { ADMIN_TOKEN: ADMIN, METRICS_TOKEN: METRICS } });
    try {
      for (const phone of [satellitePhone(), '+870773111001', '+80012345678']) {
        const refused = await send(t, phone);
        assert.equal(refused.status, 400, phone);
        assert.equal(refused.body.error.code, 'INVALID_PHONE', phone);
        assert.equal(refused.body.error.details.reason, 'country_not_allowed', phone);
      }
      assert.equal(t.sms.inbox.length, 0, 'nothing sent');
      const seen = await countries(t);
      const row = seen.find((c) => c.country === '001');
      assert.equal(row?.last_hour.refused.country_not_allowed, 3);
      assert.equal(
        await metric(t, 'callsign_otp_sends_total{country="001",outcome="refused_country",attested="false"}'),
        3,
      );
      assert.equal((await send(t, '+14155550123')).status, 200, 'a number with a country still goes');
    } finally {
      await t.close();
    }
  });

  test('with SMS_ALLOWED_COUNTRIES naming 001: sent, and 001 has a breaker of its own', async () => {
    const t = await createTestApp({
      env: {
        ADMIN_TOKEN: ADMIN,
        METRICS_TOKEN: METRICS,
        SMS_ALLOWED_COUNTRIES: 'US,001',
        SMS_BREAKER: 'min_sends=3,min_conversion=0.5',
        CHALLENGE_MAX_NUMBER: '1000',
      },
    });
    try {
      for (let i = 0; i < 3; i++) assert.equal((await send(t, satellitePhone())).status, 200, `send ${i}`);
      const challenged = await send(t, satellitePhone());
      assert.equal(challenged.body.error?.code, 'CHALLENGE_REQUIRED', 'the 001 breaker opened');
      assert.equal((await send(t, '+14155550124')).status, 200, 'the US breaker is another');
      const row = (await countries(t)).find((c) => c.country === '001');
      assert.equal(row?.last_hour.sent, 3);
      assert.equal(row?.breaker, 'open');
      assert.equal(
        await metric(t, 'callsign_otp_sends_total{country="001",outcome="sent",attested="false"}'),
        3,
      );
      assert.equal(await metric(t, 'callsign_sms_breaker_open{country="001"}'), 1);
      const held = await t.request('POST', '/admin/v1/sms/countries/001/breaker', {
        token: ADMIN,
        body: { state: 'closed' },
      });
      assert.deepEqual(held.body, { country: '001', override: 'closed' });
      assert.equal((await send(t, satellitePhone())).status, 200, 'held closed by the operator');
    } finally {
      await t.close();
    }
  });

  test('spend the day’s budget like any country', async () => {
    const t = await createTestApp({
      env: { ADMIN_TOKEN: ADMIN, SMS_ALLOWED_COUNTRIES: '001', SMS_DAILY_LIMIT: '1' },
    });
    try {
      assert.equal((await send(t, satellitePhone())).status, 200);
      const over = await send(t, satellitePhone());
      assert.equal(over.status, 429);
      assert.equal(over.body.error.details.scope, 'daily_limit');
      const row = (await countries(t)).find((c) => c.country === '001');
      assert.equal(row?.last_hour.refused.over_budget, 1);
    } finally {
      await t.close();
    }
  });
});
