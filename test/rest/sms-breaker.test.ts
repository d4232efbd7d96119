import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { solveChallenge } from 'altcha-lib';
import { createTestApp, type TestApp, uniqueIp } from '../helpers/app.ts';

// Toll-fraud defence beyond where codes may go: a proof-of-work challenge (ALTCHA v1) when a send asks for
// one, and a breaker per destination country on conversion that asks for it, with a cap while open.

interface Challenge {
  algorithm: string;
  challenge: string;
  maxnumber: number;
  salt: string;
  signature: string;
}

/** Solves a challenge as a client would, and answers ALTCHA's payload; `number` overrides the answer. */
async function solve(c: Challenge, number?: number): Promise<string> {
  const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
  assert.ok(solution, 'solvable');
  const payload = {
    algorithm: c.algorithm,
    challenge: c.challenge,
    number: number ?? solution.number,
    salt: c.salt,
    signature: c.signature,
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

const send = (t: TestApp, phone: string, challenge_solution?: string) =>
  t.request('POST', '/auth/otp/send', {
    body: { phone, purpose: 'signup', ...(challenge_solution ? { challenge_solution } : {}) },
    ip: uniqueIp(),
  });

const METRICS = 'metrics-token-for-sms-tests-0123456789';

let usPhones = 0;
/** A US mobile number in a block of its own. */
const usPhone = () => `+1212${5_000_000 + ++usPhones * 1001}`;

describe('CHALLENGE_MODE=always', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { CHALLENGE_MODE: 'always', CHALLENGE_MAX_NUMBER: '1000' } });
  });
  after(() => t.close());

  test('a send without a solution is CHALLENGE_REQUIRED with a challenge; a solved one goes, once', async () => {
    const phone = usPhone();
    const refused = await send(t, phone);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'CHALLENGE_REQUIRED');
    const challenge: Challenge = refused.body.error.details.challenge;
    assert.deepEqual(Object.keys(challenge).sort(), [
      'algorithm',
      'challenge',
      'maxnumber',
      'salt',
      'signature',
    ]);
    assert.equal(challenge.algorithm, 'SHA-256');
    const solution = await solve(challenge);
    assert.equal((await send(t, phone, solution)).status, 200);
    const reused = await send(t, usPhone(), solution);
    assert.equal(reused.status, 403, 'a solution is used once');
    assert.equal(reused.body.error.code, 'CHALLENGE_REQUIRED');
  });

  test('GET /auth/challenge answers one; a wrong answer or an expired challenge is refused', async () => {
    const res = await t.request('GET', '/auth/challenge');
    assert.equal(res.status, 200);
    const challenge: Challenge = res.body.data;
    const right = await solve(challenge);
    const wrongNumber = JSON.parse(Buffer.from(right, 'base64').toString()).number + 1;
    assert.equal((await send(t, usPhone(), await solve(challenge, wrongNumber))).status, 403);
    t.clock.advance(601);
    assert.equal((await send(t, usPhone(), right)).status, 403, 'expired after 10 minutes');
    assert.equal((await send(t, usPhone(), 'not base64 json')).body.error.code, 'CHALLENGE_REQUIRED');
  });
});

describe('the country breaker (CHALLENGE_MODE=breaker, the default)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({
      env: {
        SMS_BREAKER: 'window=3600,min_sends=5,min_conversion=0.5,open_cap=3',
        CHALLENGE_MAX_NUMBER: '1000',
        METRICS_TOKEN: METRICS,
      },
    });
  });
  after(() => t.close());

  test('codes nobody enters open a country breaker; its sends then need a challenge and stop at the cap', async () => {
    const sent: string[] = [];
    for (let i = 0; i < 5; i++) {
      const phone = usPhone();
      assert.equal((await send(t, phone)).status, 200, `honest-looking send ${i}`);
      sent.push(phone);
    }
    const asked = await send(t, usPhone());
    assert.equal(asked.body.error?.code, 'CHALLENGE_REQUIRED', 'the breaker is open');
    assert.ok(
      t.logs.some((line) => line.includes('SMS breaker opened')),
      'logged',
    );
    assert.equal((await send(t, '+919876543210')).status, 200, 'another country is not affected');
    for (let i = 0; i < 3; i++) {
      const challenge = (await t.request('GET', '/auth/challenge')).body.data;
      const phone = usPhone();
      assert.equal((await send(t, phone, await solve(challenge))).status, 200, `solved send ${i}`);
      sent.push(phone);
    }
    const challenge = (await t.request('GET', '/auth/challenge')).body.data;
    const capped = await send(t, usPhone(), await solve(challenge));
    assert.equal(capped.status, 429);
    assert.equal(capped.body.error.code, 'RATE_LIMITED');
    assert.equal(capped.body.error.details.scope, 'country');

    // People enter their codes: 4 of the 8 sent is the 0.5 asked for, and the breaker closes by itself.
    for (const phone of sent.slice(0, 4)) {
      const code = t.sms.lastCode(phone);
      const verified = await t.request('POST', '/auth/otp/verify', {
        body: { phone, code, purpose: 'signup' },
      });
      assert.equal(verified.status, 200);
    }
    assert.equal((await send(t, usPhone())).status, 200, 'closed again: no challenge');
    assert.ok(
      t.logs.some((line) => line.includes('SMS breaker closed')),
      'logged',
    );

    const metrics = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS}` } });
    const value = (series: string) => {
      const line = metrics.body.split('\n').find((l) => l.startsWith(`${series} `));
      return line === undefined ? undefined : Number(line.slice(series.length + 1));
    };
    // No app attested these sends: each count says so.
    assert.equal(value('callsign_otp_sends_total{country="US",outcome="sent",attested="false"}'), 9);
    assert.equal(value('callsign_otp_sends_total{country="US",outcome="challenged",attested="false"}'), 1);
    assert.equal(value('callsign_otp_sends_total{country="US",outcome="over_cap",attested="false"}'), 1);
    assert.equal(value('callsign_otp_verifications_total{country="US"}'), 4);
    assert.equal(value('callsign_sms_breaker_open{country="US"}'), 0);
  });

  test('the window slides with the clock (by the minute): an hour later the count starts again', async () => {
    for (let i = 0; i < 6; i++) await send(t, `+1312${5_000_000 + i * 1001}`);
    assert.equal((await send(t, '+13125999999')).body.error?.code, 'CHALLENGE_REQUIRED');
    t.clock.advance(3660);
    assert.equal((await send(t, '+13125888888')).status, 200);
  });
});

describe('SMS_DAILY_LIMIT', () => {
  test('messages past the day’s budget answer RATE_LIMITED until the next UTC midnight; 80% and 100% are logged', async () => {
    const t = await createTestApp({
      env: { SMS_DAILY_LIMIT: '5', TEST_PHONE_NUMBERS: '+16505550142=000000' },
    });
    try {
      for (let i = 0; i < 5; i++) assert.equal((await send(t, usPhone())).status, 200, `message ${i + 1}`);
      assert.equal(
        (await send(t, '+16505550142')).status,
        200,
        'a test number sends nothing and spends nothing',
      );
      const over = await send(t, usPhone());
      assert.equal(over.status, 429);
      assert.equal(over.body.error.details.scope, 'daily_limit');
      const now = t.clock.now().getTime();
      const midnight = Math.floor(now / 86_400_000) * 86_400_000 + 86_400_000;
      assert.equal(Number(over.headers['retry-after']), Math.ceil((midnight - now) / 1000));
      assert.ok(t.logs.some((line) => line.includes('80% spent')));
      assert.ok(t.logs.some((line) => line.includes('all spent')));
      t.clock.advance(Math.ceil((midnight - now) / 1000));
      assert.equal((await send(t, usPhone())).status, 200, 'a new day');
    } finally {
      await t.close();
    }
  });
});

describe('operators see the traffic per country, and override a breaker', () => {
  test('GET /admin/v1/sms/countries; POST .../breaker open holds it open, closed holds it closed, auto lets go', async () => {
    const t = await createTestApp({
      env: {
        ADMIN_TOKEN: 'admin-token-for-sms-tests-0123456789',
        SMS_BREAKER: 'min_sends=3,min_conversion=0.5',
        CHALLENGE_MAX_NUMBER: '1000',
      },
    });
    const admin = { token: 'admin-token-for-sms-tests-0123456789' };
    try {
      const phone = usPhone();
      await send(t, phone);
      await t.request('POST', '/auth/otp/verify', {
        body: { phone, code: t.sms.lastCode(phone), purpose: 'signup' },
      });
      await send(t, usPhone());
      // A code the gateway would not take is not counted as sent.
      t.sms.status = 500;
      assert.equal((await send(t, usPhone())).status, 500);
      t.sms.status = 202;
      const seen = await t.request('GET', '/admin/v1/sms/countries', admin);
      assert.equal(seen.status, 200);
      const none = {
        country_not_allowed: 0,
        number_type_not_allowed: 0,
        prefix: 0,
        challenge: 0,
        over_cap: 0,
        over_budget: 0,
        rate_limited: 0,
      };
      const period = { sent: 2, verified: 1, attested: 0, conversion: 0.5, refused: none };
      assert.deepEqual(seen.body.data, [
        { country: 'US', last_hour: period, last_24h: period, breaker: 'closed', override: null },
      ]);
      const held = await t.request('POST', '/admin/v1/sms/countries/us/breaker', {
        ...admin,
        body: { state: 'open' },
      });
      assert.deepEqual(held.body, { country: 'US', override: 'open' });
      assert.equal((await send(t, usPhone())).body.error?.code, 'CHALLENGE_REQUIRED', 'held open');
      assert.equal((await send(t, '+19002345678')).body.error?.details.reason, 'number_type_not_allowed');
      const refused = (await t.request('GET', '/admin/v1/sms/countries', admin)).body.data[0].last_hour
        .refused;
      assert.deepEqual(
        refused,
        { ...none, challenge: 1, number_type_not_allowed: 1 },
        'refusals counted by reason',
      );
      // Three unanswered codes would open it; held closed, it stays closed.
      await t.request('POST', '/admin/v1/sms/countries/US/breaker', { ...admin, body: { state: 'closed' } });
      for (let i = 0; i < 4; i++) assert.equal((await send(t, usPhone())).status, 200, `held closed ${i}`);
      await t.request('POST', '/admin/v1/sms/countries/US/breaker', { ...admin, body: { state: 'auto' } });
      assert.equal(
        (await send(t, usPhone())).body.error?.code,
        'CHALLENGE_REQUIRED',
        'the traffic decides again',
      );
      const bad = await t.request('POST', '/admin/v1/sms/countries/XX/breaker', {
        ...admin,
        body: { state: 'open' },
      });
      assert.equal(bad.status, 400);
      const trail = await t.request('GET', '/admin/v1/actions', admin);
      assert.ok(
        trail.body.data.some((a: { route: string }) => a.route === '/admin/v1/sms/countries/:cc/breaker'),
      );
    } finally {
      await t.close();
    }
  });
});
