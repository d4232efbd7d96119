import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp, uniquePhone } from '../helpers/app.ts';

describe('a correct code is never lost to its own duplicates', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'otp_send_address=1000/3600,rest_address=100000/60' } });
  });
  after(() => t.close());

  test('20 parallel submissions of the right code: exactly one temp_token in each of 50 rounds, the others INVALID_OTP', async () => {
    const ROUNDS = 50;
    const PARALLEL = 20;
    for (let round = 0; round < ROUNDS; round++) {
      const phone = uniquePhone();
      const sent = await t.request('POST', '/auth/otp/send', { body: { phone, purpose: 'signup' } });
      assert.equal(sent.status, 200);
      const code = t.sms.lastCode(phone);
      const answers = await Promise.all(
        Array.from({ length: PARALLEL }, () =>
          t.request('POST', '/auth/otp/verify', { body: { phone, code, purpose: 'signup' } }),
        ),
      );
      const tokens = answers.filter((a) => a.status === 200 && a.body.data.temp_token);
      assert.equal(tokens.length, 1, `round ${round}: ${answers.map((a) => a.status).join(' ')}`);
      for (const a of answers.filter((x) => x.status !== 200)) {
        assert.equal(a.status, 400, `round ${round}`);
        assert.equal(a.body.error.code, 'INVALID_OTP');
        assert.equal(a.body.error.message, 'the code is wrong or no longer valid');
      }
    }
  });
});
