import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, events, signUp, type TestApp, uniqueIp, uniquePhone } from '../helpers/app.ts';

describe('POST /auth/otp/send and /auth/otp/verify (spec OTP rules)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const send = (phone: unknown, purpose: unknown = 'signup', ip = uniqueIp()) =>
    t.request('POST', '/auth/otp/send', { body: { phone, purpose }, ip });
  const verify = (phone: string, code: string, purpose = 'signup', ip = uniqueIp()) =>
    t.request('POST', '/auth/otp/verify', { body: { phone, code, purpose }, ip });

  test('send texts a 6-digit code and answers expires_in 300 with the phone masked', async () => {
    const phone = uniquePhone();
    const res = await send(phone);
    assert.equal(res.status, 200);
    assert.equal(res.body.success, true);
    assert.equal(res.body.data.expires_in, 300);
    assert.match(res.body.data.message, /\+1\*{6}\d{4}/);
    assert.ok(!res.body.data.message.includes(phone));
    assert.match(t.sms.lastCode(phone), /^\d{6}$/);
    // P10: the text names its lifetime and warns against sharing; it names no service (integrators brand it).
    const [text] = t.sms.messagesTo(phone);
    assert.match(text, /expires in 5 minutes/);
    assert.match(text, /Never share it/);
    const lines = text.split('\n');
    assert.doesNotMatch(lines[0], /callsign/i);
    // Its last line is for the browser (WebOTP): the host of the deployment's own sign-in address.
    assert.equal(lines.at(-1), `@callsign.test #${t.sms.lastCode(phone)}`);
  });

  test('a spelled-out number is normalised to E.164; the code goes to the E.164 number', async () => {
    const phone = uniquePhone();
    const spaced = `${phone.slice(0, 2)} ${phone.slice(2, 5)} ${phone.slice(5, 8)} ${phone.slice(8)}`;
    assert.equal((await send(spaced)).status, 200);
    assert.equal(t.sms.messagesTo(phone).length, 1);
  });

  test('invalid phones answer INVALID_PHONE (400) naming the field', async () => {
    for (const bad of ['12345', '+1234', '+1 415 000 0000', 'phone', '+99912345678']) {
      const res = await send(bad);
      assert.equal(res.status, 400, bad);
      assert.equal(res.body.error.code, 'INVALID_PHONE', bad);
      assert.equal(res.body.error.details.field, 'phone');
    }
  });

  test('an unknown purpose or a missing field is INVALID_REQUEST', async () => {
    const res = await send(uniquePhone(), 'login');
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'INVALID_REQUEST');
    assert.equal(res.body.error.details.field, 'purpose');
    const missing = await t.request('POST', '/auth/otp/send', { body: { purpose: 'signup' } });
    assert.equal(missing.body.error.code, 'INVALID_REQUEST');
    assert.equal(missing.body.error.details.field, 'phone');
  });

  test('purpose=signup for a registered phone is PHONE_EXISTS; pin_reset for an unknown phone is PHONE_NOT_FOUND', async () => {
    const { phone } = await signUp(t);
    const exists = await send(phone, 'signup');
    assert.equal(exists.status, 409);
    assert.equal(exists.body.error.code, 'PHONE_EXISTS');
    const unknown = await send(uniquePhone(), 'pin_reset');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, 'PHONE_NOT_FOUND');
  });

  test('the code is stored only as a keyed hash', async () => {
    const phone = uniquePhone();
    await send(phone);
    const code = t.sms.lastCode(phone);
    const rows = await t.c.db.query<Record<string, unknown>>('SELECT * FROM otps WHERE phone = $1', [phone]);
    assert.equal(rows.length, 1);
    assert.ok(!JSON.stringify(rows).includes(code));
  });

  test('verify answers verified, a temp_token and expires_in 600', async () => {
    const phone = uniquePhone();
    await send(phone);
    const res = await verify(phone, t.sms.lastCode(phone));
    assert.equal(res.status, 200);
    assert.equal(res.body.data.verified, true);
    assert.equal(typeof res.body.data.temp_token, 'string');
    assert.ok(res.body.data.temp_token.length >= 43);
    assert.equal(res.body.data.expires_in, 600);
  });

  test('a code is single use', async () => {
    const phone = uniquePhone();
    await send(phone);
    const code = t.sms.lastCode(phone);
    assert.equal((await verify(phone, code)).status, 200);
    const again = await verify(phone, code);
    assert.equal(again.status, 400);
    assert.equal(again.body.error.code, 'INVALID_OTP');
  });

  test('a code is bound to its purpose', async () => {
    const { phone } = await signUp(t);
    await send(phone, 'pin_reset');
    const res = await verify(phone, t.sms.lastCode(phone), 'signup');
    assert.equal(res.body.error.code, 'INVALID_OTP');
  });

  test('wrong code is INVALID_OTP with the attempts left', async () => {
    const phone = uniquePhone();
    await send(phone);
    const code = t.sms.lastCode(phone);
    const wrong = code === '000000' ? '111111' : '000000';
    const res = await verify(phone, wrong);
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'INVALID_OTP');
    assert.equal(res.body.error.details.attempts_remaining, 4);
  });

  test('a new send invalidates the previous code', async () => {
    const phone = uniquePhone();
    await send(phone);
    const first = t.sms.lastCode(phone);
    await send(phone);
    const second = t.sms.lastCode(phone);
    if (first !== second) assert.equal((await verify(phone, first)).body.error.code, 'INVALID_OTP');
    assert.equal((await verify(phone, second)).status, 200);
  });

  test('OTP lifetime: valid at 299 s, OTP_EXPIRED after 300 s (clock moved)', async () => {
    const phone = uniquePhone();
    await send(phone);
    const code = t.sms.lastCode(phone);
    t.clock.advance(299);
    const phone2 = uniquePhone();
    await send(phone2);
    const code2 = t.sms.lastCode(phone2);
    assert.equal((await verify(phone, code)).status, 200);
    t.clock.advance(301);
    const late = await verify(phone2, code2);
    assert.equal(late.status, 400);
    assert.equal(late.body.error.code, 'OTP_EXPIRED');
  });

  test('five evaluations per code; the 6th answers RATE_LIMITED and burns the code', async () => {
    const phone = uniquePhone();
    await send(phone);
    const code = t.sms.lastCode(phone);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) assert.equal((await verify(phone, wrong)).body.error.code, 'INVALID_OTP');
    const sixth = await verify(phone, code);
    assert.equal(sixth.status, 429);
    assert.equal(sixth.body.error.code, 'RATE_LIMITED');
    assert.equal(sixth.body.error.details.scope, 'otp_attempts');
    assert.equal((await verify(phone, code)).body.error.code, 'INVALID_OTP', 'the code is burnt');
  });

  test('race: 30 parallel verifies of one code get at most 5 evaluations', async () => {
    const phone = uniquePhone();
    await send(phone);
    const code = t.sms.lastCode(phone);
    const wrong = code === '000000' ? '111111' : '000000';
    const answers = await Promise.all(Array.from({ length: 30 }, () => verify(phone, wrong)));
    // An evaluated code answers INVALID_OTP with attempts_remaining; the rest never reached the comparison.
    const evaluated = answers.filter((a) => a.body.error.details.attempts_remaining !== undefined).length;
    assert.equal(evaluated, 5);
    assert.ok(
      answers.some((a) => a.body.error.code === 'RATE_LIMITED'),
      'the 6th burns the code',
    );
    assert.equal(
      (await verify(phone, code)).body.error.code,
      'INVALID_OTP',
      'even the right code is refused now',
    );
  });

  test('race: the right code verified 5 times at once gives exactly one temp_token', async () => {
    const phone = uniquePhone();
    await send(phone);
    const code = t.sms.lastCode(phone);
    const answers = await Promise.all(Array.from({ length: 5 }, () => verify(phone, code)));
    assert.equal(answers.filter((a) => a.status === 200).length, 1);
  });

  test('verify without a code ever sent is INVALID_OTP', async () => {
    const res = await verify(uniquePhone(), '123456');
    assert.equal(res.body.error.code, 'INVALID_OTP');
  });

  test('limits: 3 sends per phone per hour, with X-RateLimit-* and Retry-After; a new hour starts afresh', async () => {
    const phone = uniquePhone();
    for (let i = 1; i <= 3; i++) {
      const res = await send(phone);
      assert.equal(res.status, 200);
      assert.equal(res.headers['x-ratelimit-limit'], '3');
      assert.equal(res.headers['x-ratelimit-remaining'], String(3 - i));
      assert.ok(Number(res.headers['x-ratelimit-reset']) * 1000 > t.clock.now().getTime());
    }
    const fourth = await send(phone);
    assert.equal(fourth.status, 429);
    assert.equal(fourth.body.error.code, 'RATE_LIMITED');
    assert.equal(fourth.body.error.details.scope, 'otp_send_phone');
    assert.equal(fourth.headers['x-ratelimit-remaining'], '0');
    const retry = Number(fourth.headers['retry-after']);
    assert.ok(retry >= 1 && retry <= 3600);
    assert.ok(Date.parse(fourth.body.error.details.retry_after) > t.clock.now().getTime());
    // P2: a fixed window aligned to the epoch; this one ends at the next full hour, whenever the first send was.
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const windowEnd = Math.floor(now / 3600) * 3600 + 3600;
    assert.equal(Number(fourth.headers['x-ratelimit-reset']), windowEnd);
    assert.equal(retry, windowEnd - now);
    t.clock.advance(windowEnd - now - 1);
    assert.equal((await send(phone)).status, 429, 'a second before the full hour: the same window');
    t.clock.advance(1);
    assert.equal((await send(phone)).status, 200, 'at the full hour a new window starts afresh');
  });

  test('limits: 10 sends per client address per hour', async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 10; i++) assert.equal((await send(uniquePhone(), 'signup', ip)).status, 200);
    const res = await send(uniquePhone(), 'signup', ip);
    assert.equal(res.status, 429);
    assert.equal(res.body.error.code, 'RATE_LIMITED');
    assert.equal(res.body.error.details.scope, 'otp_send_address');
    assert.equal(res.headers['x-ratelimit-limit'], '10');
  });

  test('verifies also count against their address (100 per minute), across phones: no spraying codes', async () => {
    const ip = '192.0.2.77'; // outside uniqueIp's range, so no other test shares this window
    for (let i = 0; i < 100; i++) {
      const res = await verify(uniquePhone(), '123456', 'signup', ip);
      assert.equal(res.body.error.code, 'INVALID_OTP');
    }
    const over = await verify(uniquePhone(), '123456', 'signup', ip);
    assert.equal(over.status, 429);
    assert.equal(over.body.error.code, 'RATE_LIMITED');
    assert.equal(over.headers['x-ratelimit-limit'], '100');
    assert.equal((await verify(uniquePhone(), '123456')).body.error.code, 'INVALID_OTP', 'another address');
  });

  test('a failed SMS send answers INTERNAL_ERROR and leaves no usable code', async () => {
    const phone = uniquePhone();
    await send(phone);
    const earlier = t.sms.lastCode(phone);
    t.sms.status = 500;
    try {
      const res = await send(phone);
      assert.equal(res.status, 500);
      assert.equal(res.body.error.code, 'INTERNAL_ERROR');
    } finally {
      t.sms.status = 202;
    }
    assert.equal((await verify(phone, earlier)).body.error.code, 'INVALID_OTP');
    const rows = await t.c.db.query('SELECT 1 FROM otps WHERE phone = $1 AND consumed_at IS NULL', [phone]);
    assert.equal(rows.length, 0);
  });

  test('no event is written for OTP traffic', async () => {
    const before = (await events(t)).length;
    const phone = uniquePhone();
    await send(phone);
    await verify(phone, t.sms.lastCode(phone));
    assert.equal((await events(t)).length, before);
  });
});

describe('test phone numbers and enumeration protection', () => {
  test('a configured test number gets its fixed code and no SMS in development', async () => {
    const t = await createTestApp({ env: { TEST_PHONE_NUMBERS: '+14155550100=246810' } });
    try {
      assert.equal(
        (await t.request('POST', '/auth/otp/send', { body: { phone: '+14155550100', purpose: 'signup' } }))
          .status,
        200,
      );
      assert.equal(t.sms.messagesTo('+14155550100').length, 0);
      const res = await t.request('POST', '/auth/otp/verify', {
        body: { phone: '+14155550100', code: '246810', purpose: 'signup' },
      });
      assert.equal(res.status, 200);
    } finally {
      await t.close();
    }
  });

  test('ENUMERATION_PROTECTION: known and unknown numbers get the same answer; only the owner learns more', async () => {
    const t = await createTestApp({ env: { ENUMERATION_PROTECTION: 'true' } });
    try {
      const { phone } = await signUp(t);
      const smsBefore = t.sms.messagesTo(phone).length;
      const known = await t.request('POST', '/auth/otp/send', { body: { phone, purpose: 'signup' } });
      const stranger = uniquePhone();
      const unknown = await t.request('POST', '/auth/otp/send', {
        body: { phone: stranger, purpose: 'pin_reset' },
      });
      assert.equal(known.status, 200);
      assert.equal(unknown.status, 200);
      assert.equal(known.body.data.expires_in, unknown.body.data.expires_in);
      assert.match(t.sms.messagesTo(phone).at(-1) ?? '', /already has one/);
      assert.equal(t.sms.messagesTo(phone).length, smsBefore + 1);
      assert.equal(t.sms.messagesTo(stranger).length, 0);
      const v = await t.request('POST', '/auth/otp/verify', {
        body: { phone: stranger, code: '123456', purpose: 'pin_reset' },
      });
      assert.equal(v.body.error.code, 'INVALID_OTP');
    } finally {
      await t.close();
    }
  });
});
