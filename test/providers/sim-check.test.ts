import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/providers/clock.ts';
import { CamaraSimCheck } from '../../src/providers/sim-check/camara.ts';
import { HttpSimCheck } from '../../src/providers/sim-check/http-check.ts';
import { TwilioSimCheck } from '../../src/providers/sim-check/twilio-lookup.ts';
import { camara, type NumberTable, ownService } from '../helpers/sim-vendors.ts';
import { VendorServer } from '../helpers/vendor-server.ts';

// The SIM check providers on their own, against local servers: CAMARA's token is fetched once and kept until
// 30 s before it expires; every error shape and a vendor that does not answer within the deadline is unknown,
// never "not swapped"; Twilio's swapped_in_period counts only over a period that answers for the window.

const PHONE = '+919812345678';
/** The deadline of a check whose vendor answers: met with room to spare, also on a busy machine. */
const DEADLINE_MS = 5000;
/** The deadline of a check whose vendor stays silent or answers too slowly, so that it ends soon. */
const SHORT_DEADLINE_MS = 150;

describe('CAMARA', () => {
  const numbers: NumberTable = new Map();
  const vendor = new VendorServer(camara('id', 'secret', numbers));
  const clock = new ManualClock();
  let check: CamaraSimCheck;
  let hurried: CamaraSimCheck;
  before(async () => {
    const url = await vendor.start();
    const settings = { apiRoot: url, tokenUrl: `${url}/token`, clientId: 'id', clientSecret: 'secret' };
    check = new CamaraSimCheck(settings, () => clock.now(), DEADLINE_MS);
    hurried = new CamaraSimCheck(settings, () => clock.now(), SHORT_DEADLINE_MS);
  });
  after(() => vendor.close());
  const tokenRequests = () => vendor.requests.filter((r) => r.path === '/token').length;

  test('one token for concurrent checks, kept until 30 s before it expires', async () => {
    numbers.set(PHONE, { swapped: false });
    const answers = await Promise.all([check.swappedWithin(PHONE, 168), check.swappedWithin(PHONE, 168)]);
    assert.deepEqual(
      answers.map((a) => a.outcome),
      ['not_swapped', 'not_swapped'],
    );
    assert.equal(tokenRequests(), 1);
    clock.advance(3600 - 31);
    await check.swappedWithin(PHONE, 168);
    assert.equal(tokenRequests(), 1);
    clock.advance(2);
    await check.swappedWithin(PHONE, 168);
    assert.equal(tokenRequests(), 2, 'a new token 30 s before expiry');
  });

  test('a swap comes with its date from retrieve-date; recycling answers by specifiedDate', async () => {
    numbers.set(PHONE, { swapped: true, lastSwapAt: '2026-11-20T10:00:00Z', recycled: true });
    const swap = await check.swappedWithin(PHONE, 168);
    assert.equal(swap.outcome, 'swapped');
    assert.equal(swap.lastSwapAt?.toISOString(), '2026-11-20T10:00:00.000Z');
    const recycled = await check.recycledSince(PHONE, new Date('2026-01-05T12:00:00Z'));
    assert.equal(recycled.outcome, 'recycled');
    assert.equal((vendor.requests.at(-1)?.json as { specifiedDate: string }).specifiedDate, '2026-01-05');
  });

  test('CAMARA errors (404 IDENTIFIER_NOT_FOUND, 422, 5xx), a bad window and a silent vendor are unknown', async () => {
    numbers.clear();
    assert.deepEqual(await check.swappedWithin(PHONE, 168), {
      outcome: 'unknown',
      detail: '404 IDENTIFIER_NOT_FOUND',
    });
    numbers.set(PHONE, { error: 422 });
    assert.deepEqual(await check.swappedWithin(PHONE, 168), {
      outcome: 'unknown',
      detail: '422 SERVICE_NOT_APPLICABLE',
    });
    numbers.set(PHONE, { error: 503 });
    assert.equal((await check.recycledSince(PHONE, new Date())).outcome, 'unknown');
    numbers.set(PHONE, { swapped: true });
    assert.deepEqual(await check.swappedWithin(PHONE, 5000), {
      outcome: 'unknown',
      detail: '400 OUT_OF_RANGE',
    });
    vendor.hang = true;
    assert.deepEqual(await hurried.swappedWithin(PHONE, 168), { outcome: 'unknown', detail: 'timeout' });
    vendor.hang = false;
  });

  test('one deadline covers the whole check: a token and a check each within it, together past it, are unknown', async () => {
    numbers.set(PHONE, { swapped: true, lastSwapAt: '2026-11-20T10:00:00Z' });
    // A new instance, so that the check needs a token first; each answer takes two thirds of the deadline.
    const url = `http://${vendor.requests[0]?.headers.host}`;
    const slow = new CamaraSimCheck(
      { apiRoot: url, tokenUrl: `${url}/token`, clientId: 'id', clientSecret: 'secret' },
      () => clock.now(),
      SHORT_DEADLINE_MS,
    );
    vendor.delayMs = 100;
    try {
      assert.deepEqual(await slow.swappedWithin(PHONE, 168), { outcome: 'unknown', detail: 'timeout' });
    } finally {
      vendor.delayMs = 0;
    }
  });

  test('an unreachable token endpoint is unknown, never not swapped', async () => {
    const wrong = new CamaraSimCheck(
      {
        apiRoot: 'http://127.0.0.1:1',
        tokenUrl: 'http://127.0.0.1:1/token',
        clientId: 'id',
        clientSecret: 'x',
      },
      () => clock.now(),
      DEADLINE_MS,
    );
    assert.deepEqual(await wrong.swappedWithin(PHONE, 168), { outcome: 'unknown', detail: 'unreachable' });
    const root = new URL(vendor.requests[0]?.headers.host ? `http://${vendor.requests[0].headers.host}` : '');
    const refusedToken = new CamaraSimCheck(
      { apiRoot: root.origin, tokenUrl: `${root.origin}/token`, clientId: 'id', clientSecret: 'wrong' },
      () => clock.now(),
      DEADLINE_MS,
    );
    assert.deepEqual(await refusedToken.swappedWithin(PHONE, 168), {
      outcome: 'unknown',
      detail: 'token 401',
    });
  });
});

describe('Twilio Lookup', () => {
  let body: unknown = {};
  const vendor = new VendorServer(() => ({ status: 200, body }));
  const clock = new ManualClock();
  let check: TwilioSimCheck;
  let hurried: TwilioSimCheck;
  before(async () => {
    const settings = { lookupUrl: await vendor.start(), accountSid: 'AC1', authToken: 't' };
    check = new TwilioSimCheck(settings, () => clock.now(), DEADLINE_MS);
    hurried = new TwilioSimCheck(settings, () => clock.now(), SHORT_DEADLINE_MS);
  });
  after(() => vendor.close());
  const answer = async (lastSimSwap: unknown, errorCode: unknown = null) => {
    body = { sim_swap: { last_sim_swap: lastSimSwap, error_code: errorCode } };
    return (await check.swappedWithin(PHONE, 168)).outcome;
  };

  test('the request is the documented one: the number in the path, Fields=sim_swap, HTTP Basic', async () => {
    await answer(null);
    const req = vendor.requests.at(-1);
    assert.equal(req?.path, `/v2/PhoneNumbers/${encodeURIComponent(PHONE)}`);
    assert.equal(req?.query.get('Fields'), 'sim_swap');
    assert.equal(req?.headers.authorization, `Basic ${Buffer.from('AC1:t').toString('base64')}`);
  });

  test('swapped_in_period counts only over a period that answers for the window', async () => {
    assert.equal(await answer({ swapped_period: 'PT48H', swapped_in_period: true }), 'swapped');
    assert.equal(await answer({ swapped_period: 'P30D', swapped_in_period: false }), 'not_swapped');
    assert.equal(await answer({ swapped_period: 'PT24H', swapped_in_period: false }), 'unknown');
    assert.equal(await answer({ swapped_period: 'P30D', swapped_in_period: true }), 'unknown');
  });

  test('a swap date is compared with the window; a null, an error_code or a silent vendor is unknown', async () => {
    const hoursAgo = (h: number) => new Date(clock.now().getTime() - h * 3600_000).toISOString();
    assert.equal(
      await answer({ last_sim_swap_date: hoursAgo(100), swapped_period: 'PT1H', swapped_in_period: false }),
      'swapped',
    );
    assert.equal(await answer({ last_sim_swap_date: hoursAgo(200) }), 'not_swapped');
    assert.equal(await answer(null), 'unknown');
    assert.equal(await answer({ swapped_period: 'P30D', swapped_in_period: false }, 60620), 'unknown');
    vendor.hang = true;
    assert.deepEqual(await hurried.swappedWithin(PHONE, 168), { outcome: 'unknown', detail: 'timeout' });
    vendor.hang = false;
  });
});

describe("an operator's own service", () => {
  const numbers: NumberTable = new Map();
  const vendor = new VendorServer(ownService(numbers));
  let check: HttpSimCheck;
  let hurried: HttpSimCheck;
  before(async () => {
    const url = await vendor.start();
    check = new HttpSimCheck(url, 168, DEADLINE_MS);
    hurried = new HttpSimCheck(url, 168, SHORT_DEADLINE_MS);
  });
  after(() => vendor.close());

  test('answers, nulls, errors and a silent service', async () => {
    numbers.set(PHONE, { swapped: true, lastSwapAt: '2026-11-26T00:00:00Z', recycled: false });
    const swap = await check.swappedWithin(PHONE, 168);
    assert.equal(swap.outcome, 'swapped');
    assert.deepEqual(vendor.requests.at(-1)?.json, { phone: PHONE, max_age_hours: 168 });
    assert.equal(
      (await check.recycledSince(PHONE, new Date('2026-06-01T00:00:00Z'))).outcome,
      'not_recycled',
    );
    assert.equal((vendor.requests.at(-1)?.json as { specified_date: string }).specified_date, '2026-06-01');
    numbers.delete(PHONE);
    assert.deepEqual(await check.swappedWithin(PHONE, 168), {
      outcome: 'unknown',
      detail: 'swapped is null',
    });
    numbers.set(PHONE, { error: 500 });
    assert.equal((await check.swappedWithin(PHONE, 168)).outcome, 'unknown');
    vendor.hang = true;
    assert.deepEqual(await hurried.swappedWithin(PHONE, 168), { outcome: 'unknown', detail: 'timeout' });
    vendor.hang = false;
  });
});
