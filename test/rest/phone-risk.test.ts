import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type Answer,
  createTestApp,
  events,
  type SignedUp,
  signUp,
  type TestApp,
  uniqueIp,
} from '../helpers/app.ts';
import {
  CAMARA_TEST,
  camara,
  camaraEnv,
  type NumberTable,
  ownService,
  twilioLookup,
} from '../helpers/sim-vendors.ts';
import { VendorServer } from '../helpers/vendor-server.ts';

// A code to the number does not sign in or reset the PIN when the number's SIM changed recently or the number
// was recycled: each provider (CAMARA, Twilio Lookup, an operator's own service, each a local server that checks
// requests as the vendor documents them) x each answer x each step, over REST.

const METHODS = 'pin,passkey,code';
const RATE_LIMITS =
  'otp_send_phone=100/3600,otp_send_address=1000/3600,signin_phone=1000/900,signin_address=1000/900';
const DAY = 86_400;

interface Provider {
  name: 'camara' | 'twilio' | 'http';
  env: (url: string) => Record<string, string>;
  behaviour: (numbers: NumberTable) => ConstructorParameters<typeof VendorServer>[0];
  recycling: boolean;
}

const PROVIDERS: Provider[] = [
  {
    name: 'camara',
    env: camaraEnv,
    behaviour: (numbers) => camara(CAMARA_TEST.clientId, CAMARA_TEST.clientSecret, numbers),
    recycling: true,
  },
  {
    name: 'twilio',
    env: (url) => ({
      SIM_CHECK_PROVIDER: 'twilio',
      TWILIO_LOOKUP_URL: url,
      TWILIO_ACCOUNT_SID: 'AC0123456789abcdef0123456789abcdef',
      TWILIO_AUTH_TOKEN: 'twilio-token-0123456789',
    }),
    behaviour: (numbers) =>
      twilioLookup('AC0123456789abcdef0123456789abcdef', 'twilio-token-0123456789', numbers),
    recycling: false,
  },
  {
    name: 'http',
    env: (url) => ({ SIM_CHECK_PROVIDER: 'http', SIM_CHECK_HTTP_URL: url, NUMBER_RECYCLING_CHECK: 'true' }),
    behaviour: (numbers) => ownService(numbers),
    recycling: true,
  },
];

for (const provider of PROVIDERS) {
  describe(`SIM checks by ${provider.name} before a code signs in or resets the PIN`, () => {
    let t: TestApp;
    let vendor: VendorServer;
    const numbers: NumberTable = new Map();
    before(async () => {
      vendor = new VendorServer(provider.behaviour(numbers));
      const url = await vendor.start();
      t = await createTestApp({ env: { RATE_LIMITS, SIGNIN_METHODS: METHODS, ...provider.env(url) } });
    });
    after(async () => {
      await t.close();
      await vendor.close();
    });

    /** A code sent for the step and verified: the answer of the verification. */
    async function codeStep(s: SignedUp, purpose: 'signin' | 'pin_reset'): Promise<Answer> {
      const ip = uniqueIp();
      const sent = await t.request('POST', '/auth/otp/send', { body: { phone: s.phone, purpose }, ip });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      const code = t.sms.lastCode(s.phone);
      return t.request('POST', '/auth/otp/verify', { body: { phone: s.phone, purpose, code }, ip });
    }

    for (const step of ['signin', 'pin_reset'] as const) {
      test(`${step}: a swapped SIM is refused with the account's other ways; the code is used up`, async () => {
        const s = await signUp(t);
        await t.request('POST', '/users/me/recovery-codes', { token: s.access_token, body: { pin: s.pin } });
        numbers.set(s.phone, {
          swapped: true,
          lastSwapAt: new Date(t.clock.now().getTime() - 3600_000).toISOString(),
        });
        const refused = await codeStep(s, step);
        assert.equal(refused.status, 403, JSON.stringify(refused.body));
        assert.equal(refused.body.error.code, 'FORBIDDEN');
        assert.equal(refused.body.error.details.reason, 'sim_swap');
        const expected = step === 'signin' ? ['pin', 'recovery_code'] : ['recovery_code'];
        assert.deepEqual(refused.body.error.details.alternatives, expected);
        const again = await t.request('POST', '/auth/otp/verify', {
          body: { phone: s.phone, purpose: step, code: t.sms.lastCode(s.phone) },
        });
        assert.notEqual(again.status, 200, 'the code is used up');
        const counted = await t.c.metrics.registry.metrics();
        assert.match(
          counted,
          new RegExp(
            `callsign_phone_checks_total\\{provider="${provider.name}",check="sim_swap",outcome="swapped"\\} [1-9]`,
          ),
        );
        const event = (await events(t, 'user.phone_risk')).find((e) => e.data.user_id === s.user.id);
        assert.equal(event?.data.reason, 'sim_swap');
        assert.equal(event?.data.step, step);
        // Nothing else changes: the PIN still signs in, the session still works.
        assert.equal(
          (await t.request('POST', '/auth/signin', { body: { phone: s.phone, pin: s.pin } })).status,
          200,
        );
        assert.equal((await t.request('GET', '/users/me', { token: s.access_token })).status, 200);
      });

      test(`${step}: a SIM that did not change goes on, and its answer is reused for 10 minutes`, async () => {
        const s = await signUp(t);
        numbers.set(s.phone, { swapped: false });
        const before = vendor.requests.length;
        assert.equal((await codeStep(s, step)).status, 200);
        const asked = vendor.requests.length - before;
        assert.ok(asked >= 1, 'the provider was asked');
        assert.equal((await codeStep(s, step)).status, 200);
        assert.equal(vendor.requests.length - before, asked, 'the known answer was reused');
        t.clock.advance(601);
        assert.equal((await codeStep(s, step)).status, 200);
        assert.ok(vendor.requests.length - before > asked, 'asked again after 10 minutes');
      });

      test(`${step}: an answer the provider cannot give goes on (SIM_CHECK_FAIL=open) and is recorded as unknown`, async () => {
        const s = await signUp(t);
        numbers.set(s.phone, { error: 503 });
        assert.equal((await codeStep(s, step)).status, 200);
        const checks = await t.c.phoneRisk.checksOf(s.user.id);
        assert.equal(checks.checks[0]?.outcome, 'unknown');
        numbers.delete(s.phone);
        t.clock.advance(601);
        assert.equal((await codeStep(s, step)).status, 200, 'an unknown subscriber is unknown too');
      });
    }

    test('a provider that does not answer within 3 s is unknown: each step goes on (SIM_CHECK_FAIL=open)', async () => {
      const s = await signUp(t);
      numbers.set(s.phone, { swapped: true });
      vendor.hang = true;
      try {
        for (const step of ['signin', 'pin_reset'] as const) {
          t.clock.advance(601);
          assert.equal((await codeStep(s, step)).status, 200);
        }
      } finally {
        vendor.hang = false;
      }
      const { checks } = await t.c.phoneRisk.checksOf(s.user.id);
      assert.deepEqual(
        checks.map((k) => [k.outcome, k.detail]),
        [
          ['unknown', 'timeout'],
          ['unknown', 'timeout'],
        ],
      );
    });

    if (provider.recycling)
      test('a number recycled since the account last proved it is refused and flagged; one proved lately is not asked', async () => {
        const s = await signUp(t);
        numbers.set(s.phone, { swapped: false, recycled: true });
        assert.equal((await codeStep(s, 'pin_reset')).status, 200, 'proved at sign-up, not 90 days ago');
        t.clock.advance(91 * DAY);
        const refused = await codeStep(s, 'signin');
        assert.equal(refused.status, 403);
        assert.equal(refused.body.error.details.reason, 'number_recycled');
        const { proof } = await t.c.phoneRisk.checksOf(s.user.id);
        assert.ok(proof?.recycled_at, 'flagged for operators');
        numbers.set(s.phone, { swapped: false, recycled: false });
        t.clock.advance(601);
        assert.equal((await codeStep(s, 'signin')).status, 200);
        // That step proved the number: for 90 days it is not asked about again, and the flag is gone.
        numbers.set(s.phone, { swapped: false, recycled: true });
        t.clock.advance(601);
        assert.equal((await codeStep(s, 'signin')).status, 200);
        assert.equal((await t.c.phoneRisk.checksOf(s.user.id)).proof?.recycled_at, null);
      });
  });
}

describe('SIM checks: fail closed, countries, and no provider', () => {
  const numbers: NumberTable = new Map();
  let vendor: VendorServer;
  let url: string;
  before(async () => {
    vendor = new VendorServer(ownService(numbers));
    url = await vendor.start();
  });
  after(() => vendor.close());

  test('SIM_CHECK_FAIL=closed refuses an unknown answer as sim_check_unavailable, with no event', async () => {
    const t = await createTestApp({
      env: {
        SIGNIN_METHODS: METHODS,
        SIM_CHECK_PROVIDER: 'http',
        SIM_CHECK_HTTP_URL: url,
        SIM_CHECK_FAIL: 'closed',
      },
    });
    try {
      const s = await signUp(t);
      numbers.set(s.phone, { error: 500 });
      await t.request('POST', '/auth/otp/send', { body: { phone: s.phone, purpose: 'pin_reset' } });
      const refused = await t.request('POST', '/auth/otp/verify', {
        body: { phone: s.phone, purpose: 'pin_reset', code: t.sms.lastCode(s.phone) },
      });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error.details.reason, 'sim_check_unavailable');
      assert.equal((await events(t, 'user.phone_risk')).length, 0);
    } finally {
      await t.close();
    }
  });

  test('a refusal offers only the ways the account has: no PIN for an account without one', async () => {
    const t = await createTestApp({
      env: { SIGNIN_METHODS: METHODS, SIM_CHECK_PROVIDER: 'http', SIM_CHECK_HTTP_URL: url },
    });
    try {
      const s = await signUp(t);
      await t.request('POST', '/users/me/recovery-codes', { token: s.access_token, body: { pin: s.pin } });
      // As an account imported without a PIN.
      await t.c.db.query('UPDATE users SET pin_hash = NULL WHERE id = $1', [s.user.id]);
      numbers.set(s.phone, { swapped: true });
      await t.request('POST', '/auth/otp/send', { body: { phone: s.phone, purpose: 'signin' } });
      const refused = await t.request('POST', '/auth/otp/verify', {
        body: { phone: s.phone, purpose: 'signin', code: t.sms.lastCode(s.phone) },
      });
      assert.equal(refused.status, 403);
      assert.deepEqual(refused.body.error.details.alternatives, ['recovery_code']);
    } finally {
      await t.close();
    }
  });

  test('a number outside SIM_CHECK_COUNTRIES is not checked', async () => {
    const t = await createTestApp({
      env: {
        SIGNIN_METHODS: METHODS,
        SIM_CHECK_PROVIDER: 'http',
        SIM_CHECK_HTTP_URL: url,
        SIM_CHECK_COUNTRIES: 'BR,IN',
      },
    });
    try {
      const s = await signUp(t);
      numbers.set(s.phone, { swapped: true });
      const before = vendor.requests.length;
      await t.request('POST', '/auth/otp/send', { body: { phone: s.phone, purpose: 'pin_reset' } });
      const verified = await t.request('POST', '/auth/otp/verify', {
        body: { phone: s.phone, purpose: 'pin_reset', code: t.sms.lastCode(s.phone) },
      });
      assert.equal(verified.status, 200);
      assert.equal(vendor.requests.length, before);
    } finally {
      await t.close();
    }
  });
});
