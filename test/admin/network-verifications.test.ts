import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type TestApp, uniqueHandle, uniqueIp } from '../helpers/app.ts';
import { consoleGet } from '../helpers/console.ts';
import {
  deviceReturns,
  type NetworkApp,
  networkApp,
  PHONE_ADDRESS,
  WIFI_ADDRESS,
} from '../helpers/network-app.ts';
import { ADMIN_TOKEN } from '../helpers/oauth.ts';

// What operators see of the silent checks: per country, how many proved the number and how many fell back to a
// code, and what the checks and the codes cost at the configured prices; the latest checks one by one, the
// number masked; and, on the user's page, which method proved each session.

/** A page's table cells, their labels dropped: `<td>text</td>`. */
const cellsOf = (body: unknown) => String(body).replace(/<td data-label="[^"]*">/g, '<td>');

/** Numbers of a country no other test file sends to (Bhutan), so the day's sums are this file's own. */
let next = 0;
const bhutanPhone = () => `+9751${String(7000000 + (process.pid % 1000) * 100 + next++).slice(-7)}`;

describe('operators’ views of the silent checks', () => {
  let n: NetworkApp;
  let t: TestApp;
  before(async () => {
    n = await networkApp({ ADMIN_TOKEN, NETWORK_VERIFICATION_PRICE: '{"BT": 0.004, "NG": 0.002}' });
    t = n.t;
  });
  after(() => n?.close());

  /** A silent check of a new number from `address`, completed: what complete answered. */
  async function check(phone: string, address: string) {
    const ip = uniqueIp();
    const started = await t.request('POST', '/auth/network/start', {
      body: { phone, purpose: 'signup' },
      ip,
    });
    assert.equal(started.body.data?.method, 'network', JSON.stringify(started.body));
    await deviceReturns(t, started.body.data.url, address);
    const body = { verification_id: started.body.data.verification_id };
    return (await t.request('POST', '/auth/network/complete', { body, ip })).body.data;
  }

  test('per country: proven silently, fell back, and what each cost; the latest checks masked', async () => {
    const proven = bhutanPhone();
    n.vendor.phones.set(PHONE_ADDRESS, proven);
    const done = await check(proven, PHONE_ADDRESS);
    await check(bhutanPhone(), WIFI_ADDRESS);
    const made = await t.request('POST', '/auth/signup', {
      body: { temp_token: done.temp_token, pin: '480715', handle: uniqueHandle() },
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));

    const countries = await t.request('GET', '/admin/v1/network-verifications/countries', {
      token: ADMIN_TOKEN,
    });
    assert.equal(countries.status, 200, JSON.stringify(countries.body));
    const bt = countries.body.data.find((c: { country: string }) => c.country === 'BT');
    assert.deepEqual(bt, {
      country: 'BT',
      tried: 2,
      verified: 1,
      other_number: 0,
      fell_back: 1,
      checks_cost: 0.008,
      codes_sent: 1,
      codes_cost: null,
    });
    const latest = await t.request(
      'GET',
      `/admin/v1/network-verifications?phone=${encodeURIComponent(proven)}`,
      {
        token: ADMIN_TOKEN,
      },
    );
    assert.equal(latest.body.data.length, 1);
    assert.equal(latest.body.data[0].outcome, 'verified');
    assert.equal(latest.body.data[0].price, 0.004);
    assert.doesNotMatch(JSON.stringify(latest.body), new RegExp(proven.slice(1)), 'the number is masked');

    const sms = await consoleGet(t, ADMIN_TOKEN, '/console/sms');
    assert.match(cellsOf(sms.body), /Silent proofs and codes, last 24 hours/);
    assert.match(
      cellsOf(sms.body),
      /<td>BT<\/td><td>2<\/td><td>1<\/td><td>0<\/td><td>1<\/td><td>0\.008<\/td><td>1<\/td>/,
    );
    const checks = await consoleGet(t, ADMIN_TOKEN, '/console/network-checks');
    assert.match(cellsOf(checks.body), /<td>verified<\/td>/);
    assert.match(cellsOf(checks.body), /<td>unavailable<\/td><td>login_required<\/td>/);

    const user = await consoleGet(t, ADMIN_TOKEN, `/console/users/${made.body.data.user.id}`);
    assert.match(cellsOf(user.body), /<td>the mobile network<\/td>/);
    const detail = await t.request('GET', `/admin/v1/users/${made.body.data.user.id}`, {
      token: ADMIN_TOKEN,
    });
    assert.deepEqual(detail.body.sessions[0].amr, ['mnv']);
  });
});
