import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { signUp, type TestApp, uniqueHandle, uniqueIp, uniquePhone } from '../helpers/app.ts';
import {
  deviceReturns,
  type NetworkApp,
  type NetworkProvider,
  networkApp,
  PHONE_ADDRESS,
  WIFI_ADDRESS,
} from '../helpers/network-app.ts';

// Each provider (CAMARA, Vonage, Twilio) against its local vendor, through the REST surface, for each purpose
// that takes a code: a phone holding the number (no code; the temp token goes on to a sign-up, a sign-in or a
// new PIN), one holding another number (refused, no code), one on Wi-Fi, a vendor failing and one hanging at
// the check's last call (exactly one code instead, which works).

const PURPOSES = ['signup', 'signin', 'pin_reset'] as const;
type Purpose = (typeof PURPOSES)[number];
const OUTCOMES = ['verified', 'other number', 'Wi-Fi', 'vendor error', 'timeout'] as const;

for (const provider of ['camara', 'vonage', 'twilio'] satisfies NetworkProvider[])
  describe(`silent verification through ${provider}`, () => {
    let n: NetworkApp;
    let t: TestApp;
    before(async () => {
      n = await networkApp(
        {
          SIGNIN_METHODS: 'pin,passkey,code',
          NETWORK_VERIFICATION_TIMEOUT_MS: '300',
          RATE_LIMITS: 'signin_address=1000/900,signin_phone=1000/900',
        },
        provider,
      );
      t = n.t;
    });
    after(() => n?.close());

    /** The number's next step with the network's temp token: an account, a session, a new PIN. */
    async function goOn(purpose: Purpose, tempToken: string) {
      const path = { signup: '/auth/signup', signin: '/auth/signin', pin_reset: '/auth/pin/reset' }[purpose];
      const body = {
        temp_token: tempToken,
        pin: '480715',
        handle: uniqueHandle(),
      };
      const used = await t.request('POST', path, {
        body: purpose === 'signin' ? { temp_token: tempToken } : body,
      });
      assert.equal(used.status, 200, `${path}: ${JSON.stringify(used.body)}`);
      return used;
    }

    for (const purpose of PURPOSES)
      for (const outcome of OUTCOMES)
        test(`${purpose}: ${outcome}`, async () => {
          const phone = purpose === 'signup' ? uniquePhone() : (await signUp(t)).phone;
          n.vendor.phones.set(PHONE_ADDRESS, outcome === 'other number' ? uniquePhone() : phone);
          const before = t.sms.messagesTo(phone).length;
          const ip = uniqueIp();
          const started = await t.request('POST', '/auth/network/start', { body: { phone, purpose }, ip });
          assert.equal(started.body.data?.method, 'network', JSON.stringify(started.body));
          if (outcome === 'vendor error') n.vendor.failCheckWith = 500;
          if (outcome === 'timeout') n.vendor.hangCheck = true;
          let done: Awaited<ReturnType<TestApp['request']>>;
          try {
            const address = outcome === 'Wi-Fi' ? WIFI_ADDRESS : PHONE_ADDRESS;
            // CAMARA and Vonage are asked on the device's return; Twilio when the app completes.
            await deviceReturns(t, started.body.data.url, address);
            done = await t.request('POST', '/auth/network/complete', {
              body: { verification_id: started.body.data.verification_id },
              ip,
            });
          } finally {
            n.vendor.failCheckWith = 0;
            n.vendor.hangCheck = false;
          }
          if (outcome === 'verified') {
            assert.equal(done.body.data?.method, 'network', JSON.stringify(done.body));
            const used = await goOn(purpose, done.body.data.temp_token);
            if (purpose !== 'pin_reset')
              assert.deepEqual(decodeJwt(used.body.data.access_token).amr, ['mnv']);
            assert.equal(t.sms.messagesTo(phone).length, before, 'no code');
            return;
          }
          if (outcome === 'other number') {
            assert.equal(done.status, 401, JSON.stringify(done.body));
            assert.equal(done.body.error.code, 'INVALID_CREDENTIALS');
            assert.equal(t.sms.messagesTo(phone).length, before, 'no code');
            return;
          }
          assert.equal(done.body.data?.method, 'code', JSON.stringify(done.body));
          assert.equal(t.sms.messagesTo(phone).length, before + 1, 'exactly one code');
          const code = t.sms.lastCode(phone);
          const verified = await t.request('POST', '/auth/otp/verify', { body: { phone, code, purpose } });
          assert.equal(verified.status, 200, JSON.stringify(verified.body));
        });
  });

describe('silent verification through twilio: the app completes before the device is done', () => {
  let n: NetworkApp;
  before(async () => {
    n = await networkApp({}, 'twilio');
  });
  after(() => n?.close());

  test('pending until the device has opened the URL, then proven; a code once the network had its time', async () => {
    const { t } = n;
    const phone = uniquePhone();
    n.vendor.phones.set(PHONE_ADDRESS, phone);
    const complete = (id: string) =>
      t.request('POST', '/auth/network/complete', { body: { verification_id: id }, ip: uniqueIp() });
    const started = await t.request('POST', '/auth/network/start', { body: { phone, purpose: 'signup' } });
    const id = started.body.data.verification_id;
    assert.deepEqual((await complete(id)).body.data, { method: 'pending', retry_after_seconds: 1 });
    await deviceReturns(t, started.body.data.url, PHONE_ADDRESS);
    assert.equal((await complete(id)).body.data.method, 'network');
    const late = await t.request('POST', '/auth/network/start', {
      body: { phone: uniquePhone(), purpose: 'signup' },
    });
    assert.equal((await complete(late.body.data.verification_id)).body.data.method, 'pending');
    t.clock.advance(16);
    const fallback = await complete(late.body.data.verification_id);
    assert.equal(fallback.body.data.method, 'code', JSON.stringify(fallback.body));
  });
});

describe('silent verification through vonage: a request already in flight for the number', () => {
  let n: NetworkApp;
  before(async () => {
    n = await networkApp({}, 'vonage');
  });
  after(() => n?.close());

  test('Vonage’s 409 sends exactly one code instead', async () => {
    const { t } = n;
    const phone = uniquePhone();
    const first = await t.request('POST', '/auth/network/start', { body: { phone, purpose: 'signup' } });
    assert.equal(first.body.data.method, 'network');
    const second = await t.request('POST', '/auth/network/start', { body: { phone, purpose: 'signup' } });
    assert.equal(second.body.data.method, 'code', JSON.stringify(second.body));
    assert.equal(t.sms.messagesTo(phone).length, 1);
  });
});
