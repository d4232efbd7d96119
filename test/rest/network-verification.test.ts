import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { PurposeKeys } from '../../src/domain/purpose-keys.ts';
import { housekeeping } from '../../src/workers/housekeeping.ts';
import { signUp, type TestApp, uniqueHandle, uniqueIp, uniquePhone } from '../helpers/app.ts';
import { testSecrets } from '../helpers/database.ts';
import type { FakeOperator } from '../helpers/fake-operator.ts';
import {
  deviceReturns,
  type NetworkApp,
  networkApp,
  PHONE_ADDRESS,
  WIFI_ADDRESS,
} from '../helpers/network-app.ts';
import { type NumberTable, ownService } from '../helpers/sim-vendors.ts';
import { VendorServer } from '../helpers/vendor-server.ts';

// A number proven silently by its mobile network through the REST surface, against an operator that checks
// every request as CAMARA documents it: a phone on its data network, one holding another number, one on Wi-Fi,
// a device that has not come back yet; each verification used once, for 5 minutes; a code sent instead,
// exactly one, wherever the network cannot say; the operator's token of an app.

describe('silent verification by the mobile network (CAMARA)', () => {
  let n: NetworkApp;
  let t: TestApp;
  let operator: FakeOperator;
  before(async () => {
    n = await networkApp({ NETWORK_VERIFICATION_COUNTRIES: 'US' });
    ({ t, operator } = n);
  });
  after(() => n?.close());

  const start = (phone: string, purpose = 'signup') =>
    t.request('POST', '/auth/network/start', { body: { phone, purpose }, ip: uniqueIp() });
  const complete = (id: string) =>
    t.request('POST', '/auth/network/complete', { body: { verification_id: id }, ip: uniqueIp() });

  const device = (url: string, address: string) => deviceReturns(t, url, address);

  test('a phone holding the number: no code, a temp token, and a session whose amr says how', async () => {
    const phone = uniquePhone();
    operator.phones.set(PHONE_ADDRESS, phone);
    const before = t.sms.messagesTo(phone).length;
    const started = await start(phone);
    assert.equal(started.status, 200, JSON.stringify(started.body));
    assert.equal(started.body.data.method, 'network');
    assert.equal(started.body.data.expires_in, 300);
    const page = await device(started.body.data.url, PHONE_ADDRESS);
    assert.equal(page.status, 200);
    assert.match(String(page.body), /You can go back to the app now/);
    const done = await complete(started.body.data.verification_id);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.data.method, 'network');
    const made = await t.request('POST', '/auth/signup', {
      body: { temp_token: done.body.data.temp_token, pin: '480715', handle: uniqueHandle() },
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.deepEqual(decodeJwt(made.body.data.access_token).amr, ['mnv']);
    assert.equal(t.sms.messagesTo(phone).length, before, 'no code was sent');
    assert.deepEqual(
      operator.seen.filter((s) => s.problem),
      [],
    );
  });

  test('a check started before an upgrade, kept in the earlier form, still finishes', async () => {
    const phone = uniquePhone();
    operator.phones.set(PHONE_ADDRESS, phone);
    const started = await start(phone);
    // The earlier form kept the vendor's part alone, sealed with the same key.
    const keys = PurposeKeys.derive(testSecrets.keyEncryptionKey, undefined, 'network-verifications');
    const id = started.body.data.verification_id;
    const [row] = await t.c.db.query('SELECT pending_enc FROM network_verifications WHERE id = $1', [id]);
    const kept = JSON.parse(keys.open(String(row.pending_enc)).toString());
    const earlier = keys.seal(Buffer.from(JSON.stringify(kept.vendor)));
    await t.c.db.query('UPDATE network_verifications SET pending_enc = $1 WHERE id = $2', [earlier, id]);
    const page = await device(started.body.data.url, PHONE_ADDRESS);
    assert.equal(page.status, 200);
    assert.equal((await complete(id)).body.data.method, 'network');
  });

  test('used once: the second completion is refused, and so is one after 5 minutes', async () => {
    const phone = uniquePhone();
    operator.phones.set(PHONE_ADDRESS, phone);
    const first = await start(phone);
    await device(first.body.data.url, PHONE_ADDRESS);
    const both = await Promise.all([
      complete(first.body.data.verification_id),
      complete(first.body.data.verification_id),
    ]);
    assert.deepEqual(both.map((a) => a.status).sort(), [200, 401]);
    const late = await start(phone);
    await device(late.body.data.url, PHONE_ADDRESS);
    t.clock.advance(301);
    const refused = await complete(late.body.data.verification_id);
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error.code, 'INVALID_TOKEN');
  });

  test('bound to its number and purpose: a sign-up’s proof resets no PIN, and names no other number', async () => {
    const owner = await signUp(t);
    operator.phones.set(PHONE_ADDRESS, owner.phone);
    // A check for another number, from the owner's phone: the network says so.
    const other = await start(uniquePhone());
    await device(other.body.data.url, PHONE_ADDRESS);
    assert.equal((await complete(other.body.data.verification_id)).body.error.code, 'INVALID_CREDENTIALS');
    // A sign-up check of a new number, its token offered to a PIN reset.
    const phone = uniquePhone();
    operator.phones.set(PHONE_ADDRESS, phone);
    const started = await start(phone, 'signup');
    await device(started.body.data.url, PHONE_ADDRESS);
    const done = await complete(started.body.data.verification_id);
    const reset = await t.request('POST', '/auth/pin/reset', {
      body: { temp_token: done.body.data.temp_token, pin: '593148' },
    });
    assert.equal(reset.status, 401, JSON.stringify(reset.body));
    assert.equal(reset.body.error.code, 'INVALID_TOKEN');
  });

  test('a device on Wi-Fi: a code instead, exactly one, and it works', async () => {
    const phone = uniquePhone();
    const started = await start(phone);
    const page = await device(started.body.data.url, WIFI_ADDRESS);
    assert.equal(page.status, 200);
    const before = t.sms.messagesTo(phone).length;
    const done = await complete(started.body.data.verification_id);
    assert.equal(done.body.data.method, 'code', JSON.stringify(done.body));
    assert.equal(done.body.data.channel, 'sms');
    assert.equal(t.sms.messagesTo(phone).length, before + 1);
    assert.equal(
      (await complete(started.body.data.verification_id)).status,
      401,
      'the fallback is sent once',
    );
    const verified = await t.request('POST', '/auth/otp/verify', {
      body: { phone, code: t.sms.lastCode(phone), purpose: 'signup' },
    });
    assert.equal(verified.status, 200);
  });

  test('a phone holding another number: INVALID_CREDENTIALS, and no code', async () => {
    const phone = uniquePhone();
    operator.phones.set(PHONE_ADDRESS, uniquePhone());
    const started = await start(phone);
    await device(started.body.data.url, PHONE_ADDRESS);
    const done = await complete(started.body.data.verification_id);
    assert.equal(done.status, 401);
    assert.equal(done.body.error.code, 'INVALID_CREDENTIALS');
    assert.equal(t.sms.messagesTo(phone).length, 0);
  });

  test('a device naming another number counts as a wrong code against the live code', async () => {
    const phone = uniquePhone();
    operator.phones.set(PHONE_ADDRESS, uniquePhone());
    const ip = uniqueIp();
    await t.request('POST', '/auth/otp/send', { body: { phone, purpose: 'signup' }, ip });
    const started = await start(phone);
    await device(started.body.data.url, PHONE_ADDRESS);
    assert.equal((await complete(started.body.data.verification_id)).body.error.code, 'INVALID_CREDENTIALS');
    const wrong = await t.request('POST', '/auth/otp/verify', {
      body: { phone, purpose: 'signup', code: t.sms.lastCode(phone) === '000000' ? '111111' : '000000' },
      ip,
    });
    assert.equal(wrong.body.error.details.attempts_remaining, 3, 'one attempt for the network, one typed');
    const right = await t.request('POST', '/auth/otp/verify', {
      body: { phone, purpose: 'signup', code: t.sms.lastCode(phone) },
      ip,
    });
    assert.equal(right.status, 200, 'the code still works');
  });

  test('before the device is back: pending; once the network has had its time, a code instead', async () => {
    const phone = uniquePhone();
    const started = await start(phone);
    const early = await complete(started.body.data.verification_id);
    assert.deepEqual(early.body.data, { method: 'pending', retry_after_seconds: 1 });
    t.clock.advance(16);
    const late = await complete(started.body.data.verification_id);
    assert.equal(late.body.data.method, 'code');
    // The device coming back now finds the check used: the page says the link is not valid.
    assert.equal((await device(started.body.data.url, PHONE_ADDRESS)).status, 400);
  });

  test('where no check can be tried (a country not listed): the code at once, as /auth/otp/send sends it', async () => {
    const phone = '+2348031234567';
    const started = await start(phone);
    assert.equal(started.status, 200, JSON.stringify(started.body));
    assert.equal(started.body.data.method, 'code');
    assert.equal(t.sms.messagesTo(phone).length, 1);
  });

  test('a start counts as a code send: the fourth for one number in an hour is refused', async () => {
    const phone = uniquePhone();
    for (let i = 0; i < 3; i++) assert.equal((await start(phone)).status, 200);
    const refused = await start(phone);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.details.scope, 'otp_send_phone');
  });

  test('a sign-up start for a number that has an account is refused as a code send is', async () => {
    const s = await signUp(t);
    const refused = await start(s.phone);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.code, 'PHONE_EXISTS');
  });

  test('an app’s operator token: a temp token; one the operator does not know: a code instead', async () => {
    const phone = uniquePhone();
    operator.operatorTokens.set('ts43-abc', phone);
    const verify = (token: string) =>
      t.request('POST', '/auth/network/verify', {
        body: { phone, purpose: 'signup', operator_token: token },
        ip: uniqueIp(),
      });
    const proven = await verify('ts43-abc');
    assert.equal(proven.body.data.method, 'network', JSON.stringify(proven.body));
    const instead = await verify('unknown');
    assert.equal(instead.body.data.method, 'code');
  });

  test('a callback with a state nobody started: the page says the link is not valid', async () => {
    const page = await t.request('GET', '/auth/network/callback?state=nothing&code=x');
    assert.equal(page.status, 400);
    assert.match(String(page.body), /not valid or has expired/);
  });
});

describe('silent verification: the daily budget, the SIM check, enumeration protection', () => {
  let n: NetworkApp;
  let t: TestApp;
  let operator: FakeOperator;
  const numbers: NumberTable = new Map();
  const sims = new VendorServer(ownService(numbers));
  before(async () => {
    n = await networkApp({
      NETWORK_VERIFICATION_DAILY_LIMIT: '4',
      ENUMERATION_PROTECTION: 'true',
      SIGNIN_METHODS: 'pin,passkey,code',
      SIM_CHECK_PROVIDER: 'http',
      SIM_CHECK_HTTP_URL: await sims.start(),
    });
    ({ t, operator } = n);
    // The day's budget counts from midnight UTC: the tests start an hour into a day.
    const now = t.clock.now();
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    t.clock.advance((midnight - now.getTime()) / 1000 + 3600);
  });
  after(async () => {
    await n?.close();
    await sims.close();
  });

  /** A whole silent check from a phone holding the number: what completing it answers. */
  async function proven(phone: string, purpose: string) {
    operator.phones.set(PHONE_ADDRESS, phone);
    const started = await t.request('POST', '/auth/network/start', {
      body: { phone, purpose },
      ip: uniqueIp(),
    });
    assert.equal(started.body.data.method, 'network', JSON.stringify(started.body));
    await deviceReturns(t, started.body.data.url, PHONE_ADDRESS);
    return t.request('POST', '/auth/network/complete', {
      body: { verification_id: started.body.data.verification_id },
    });
  }

  test('a swapped SIM: the silent proof of a sign-in is refused as a code’s is', async () => {
    const s = await signUp(t);
    numbers.set(s.phone, { swapped: true });
    const refused = await proven(s.phone, 'signin');
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    assert.equal(refused.body.error.details.reason, 'sim_swap');
  });

  test('under enumeration protection, a proven sign-up of a number that has an account ends as a code send does', async () => {
    const s = await signUp(t);
    const done = await proven(s.phone, 'signup');
    assert.equal(done.body.data.method, 'code', JSON.stringify(done.body));
    assert.match(
      t.sms.messagesTo(s.phone).at(-1) ?? '',
      /already/i,
      'the owner is told, as a code send tells',
    );
  });

  test('past the day’s budget of checks, a code at once; the next UTC day, checks again', async () => {
    // Two checks above; two more fill the budget of 4.
    for (let i = 0; i < 2; i++)
      assert.equal((await proven(uniquePhone(), 'signup')).body.data.method, 'network');
    const over = await t.request('POST', '/auth/network/start', {
      body: { phone: uniquePhone(), purpose: 'signup' },
      ip: uniqueIp(),
    });
    assert.equal(over.body.data.method, 'code');
    t.clock.advance(24 * 3600);
    assert.equal((await proven(uniquePhone(), 'signup')).body.data.method, 'network');
  });

  test('housekeeping removes checks a day past their end; a live one stays', async () => {
    const count = async () => (await t.c.db.query('SELECT 1 FROM network_verifications')).length;
    assert.ok((await count()) > 1);
    t.clock.advance(2 * 86400);
    await proven(uniquePhone(), 'signup');
    const removed = await housekeeping(t.c.db).run(t.clock.now());
    assert.ok(removed.network_verifications > 0, JSON.stringify(removed));
    assert.equal(await count(), 1);
  });
});
