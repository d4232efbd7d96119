import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { phoneChangedNotice } from '../../src/domain/accounts/phone-change.ts';
import {
  createTestApp,
  events,
  type SignedUp,
  signUp,
  type TestApp,
  uniqueIp,
  uniquePhone,
  verifiedTempToken,
} from '../helpers/app.ts';

describe('moving an account to a new phone number', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const start = (s: SignedUp, phone: unknown, ip = uniqueIp()) =>
    t.request('POST', '/users/me/phone', { token: s.access_token, body: { phone }, ip });
  const confirm = (s: SignedUp, body: Record<string, unknown>) =>
    t.request('POST', '/users/me/phone/confirm', { token: s.access_token, body });
  const signin = (phone: string, pin: string) =>
    t.request('POST', '/auth/signin', { body: { phone, pin }, ip: uniqueIp() });

  test('a code to the new number and the PIN move the account; the old number is told and free', async () => {
    const s = await signUp(t);
    const next = uniquePhone();
    const sent = await start(s, next.replace(/^\+1/, '+1 ')); // any spelling of the number (D5)
    assert.equal(sent.status, 200);
    assert.equal(sent.body.data.expires_in, 300);
    assert.match(sent.body.data.message, /^Verification code sent to \+1\*+\d{2,4}$/);
    const moved = await confirm(s, { phone: next, code: t.sms.lastCode(next), pin: s.pin });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal(moved.body.data.phone, next);
    assert.equal(moved.body.data.id, s.user.id);
    // The code proved the new number: a recycling check would count from now.
    const { proof } = await t.c.phoneRisk.checksOf(s.user.id);
    assert.equal(proof?.proven_at?.getTime(), t.clock.now().getTime());

    assert.equal((await signin(next, s.pin)).status, 200, 'signs in with the new number');
    assert.equal((await signin(s.phone, s.pin)).body.error.code, 'INVALID_CREDENTIALS', 'not the old one');
    assert.equal(
      (await t.request('GET', '/users/me', { token: s.access_token })).status,
      200,
      'sessions stay',
    );
    assert.deepEqual(t.sms.messagesTo(s.phone).at(-1), phoneChangedNotice('en'));
    const updated = (await events(t, 'user.updated')).filter(
      (e) => (e.data.user as { id: string }).id === s.user.id,
    );
    assert.deepEqual(
      updated.map((e) => e.data.changed_fields),
      [['phone']],
    );
    // D4's uniqueness is among live accounts: the old number can sign up again.
    const again = await t.request('POST', '/auth/otp/send', {
      body: { phone: s.phone, purpose: 'signup' },
      ip: uniqueIp(),
    });
    assert.equal(again.status, 200);
  });

  test('a request without valid credentials spends nothing of the number’s codes: only its address is counted', async () => {
    const s = await signUp(t);
    const target = uniquePhone();
    for (const token of [undefined, 'not-a-token', `${s.access_token}x`]) {
      for (let i = 0; i < 2; i++) {
        const refused = await t.request('POST', '/users/me/phone', {
          token,
          body: { phone: target },
          ip: uniqueIp(),
        });
        assert.equal(refused.status, 401);
        assert.equal(refused.headers['x-ratelimit-limit'], '100', 'the address’s REST limit');
      }
    }
    for (let i = 0; i < 3; i++)
      assert.equal((await start(s, target)).status, 200, `the owner's code ${i + 1} of 3`);
    const fourth = await start(s, target);
    assert.equal(fourth.status, 429, 'the 3 an hour are the owner’s own');
    assert.equal(fourth.body.error.details.scope, 'otp_send_phone');
  });

  test('bad numbers: malformed (INVALID_PHONE), the same one, and one another account has (PHONE_EXISTS)', async () => {
    const s = await signUp(t);
    const other = await signUp(t);
    const malformed = await start(s, '12');
    assert.equal(malformed.body.error.code, 'INVALID_PHONE');
    const same = await start(s, s.phone);
    assert.equal(same.status, 400);
    assert.equal(same.body.error.code, 'INVALID_REQUEST');
    assert.equal(same.body.error.details.field, 'phone');
    const taken = await start(s, other.phone);
    assert.equal(taken.status, 409);
    assert.equal(taken.body.error.code, 'PHONE_EXISTS');
    assert.equal(t.sms.messagesTo(other.phone).length, 1, 'only its sign-up code: nothing sent');
    const anonymous = await t.request('POST', '/users/me/phone', { body: { phone: uniquePhone() } });
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.body.error.code, 'INVALID_TOKEN');
  });

  test('the PIN comes first and counts toward the lock; a wrong PIN spends none of the code', async () => {
    const s = await signUp(t);
    const next = uniquePhone();
    await start(s, next);
    const code = t.sms.lastCode(next);
    const wrong = await confirm(s, { phone: next, code, pin: s.pin === '918273' ? '918274' : '918273' });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error.code, 'INVALID_CREDENTIALS');
    const row = (
      await t.c.db.query<{ failed_pin_attempts: number }>(
        'SELECT failed_pin_attempts FROM users WHERE id = $1',
        [s.user.id],
      )
    )[0];
    assert.equal(row.failed_pin_attempts, 1);
    const malformed = await confirm(s, { phone: next, code, pin: '12' });
    assert.equal(malformed.body.error.code, 'INVALID_PIN');
    assert.equal((await confirm(s, { phone: next, code, pin: s.pin })).status, 200, 'the code still works');
  });

  test('the code: wrong (attempts_remaining), 5 evaluations at most, 300 s (clock moved), once', async () => {
    const s = await signUp(t);
    const next = uniquePhone();
    await start(s, next);
    const code = t.sms.lastCode(next);
    const bad = code === '000000' ? '000001' : '000000';
    const wrong = await confirm(s, { phone: next, code: bad, pin: s.pin });
    assert.equal(wrong.body.error.code, 'INVALID_OTP');
    assert.equal(wrong.body.error.details.attempts_remaining, 4);
    for (let i = 0; i < 4; i++) await confirm(s, { phone: next, code: bad, pin: s.pin });
    const sixth = await confirm(s, { phone: next, code, pin: s.pin });
    assert.equal(sixth.status, 429, 'the 6th evaluation burns the code, even the right one');
    assert.equal(sixth.body.error.code, 'RATE_LIMITED');

    await start(s, next);
    const fresh = t.sms.lastCode(next);
    t.clock.advance(301);
    const expired = await confirm(s, { phone: next, code: fresh, pin: s.pin });
    assert.equal(expired.body.error.code, 'OTP_EXPIRED');

    await start(s, next);
    const last = t.sms.lastCode(next);
    assert.equal((await confirm(s, { phone: next, code: last, pin: s.pin })).status, 200);
    const replay = await confirm(s, { phone: next, code: last, pin: s.pin });
    assert.equal(replay.body.error.code, 'INVALID_OTP');
  });

  test('its codes are of their own purpose: not asked for, nor accepted, on /auth/otp/*', async () => {
    const s = await signUp(t);
    const next = uniquePhone();
    const asked = await t.request('POST', '/auth/otp/send', {
      body: { phone: next, purpose: 'phone_change' },
      ip: uniqueIp(),
    });
    assert.equal(asked.body.error.code, 'INVALID_REQUEST');
    await start(s, next);
    const asSignup = await t.request('POST', '/auth/otp/verify', {
      body: { phone: next, code: t.sms.lastCode(next), purpose: 'signup' },
      ip: uniqueIp(),
    });
    assert.equal(asSignup.body.error.code, 'INVALID_OTP');
    // ...and a sign-up code of that number does not move an account.
    await t.request('POST', '/auth/otp/send', { body: { phone: next, purpose: 'signup' }, ip: uniqueIp() });
    const signupCode = t.sms.lastCode(next);
    const moved = await confirm(s, { phone: next, code: signupCode, pin: s.pin });
    assert.equal(moved.body.error.code, 'INVALID_OTP');
  });

  test('race: a number another account signs up with after the code was sent is PHONE_EXISTS; nothing moves', async () => {
    const s = await signUp(t);
    const next = uniquePhone();
    await start(s, next);
    const code = t.sms.lastCode(next);
    const temp = await verifiedTempToken(t, next, 'signup');
    const created = await t.request('POST', '/auth/signup', {
      body: { temp_token: temp, pin: '480715', handle: `h${Date.now().toString(36)}` },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const moved = await confirm(s, { phone: next, code, pin: s.pin });
    assert.equal(moved.status, 409);
    assert.equal(moved.body.error.code, 'PHONE_EXISTS');
    const me = await t.request('GET', '/users/me', { token: s.access_token });
    assert.equal(me.body.data.phone, s.phone);
  });

  test('race: one code confirmed 5 times at once moves the account once', async () => {
    const s = await signUp(t);
    const next = uniquePhone();
    await start(s, next);
    const code = t.sms.lastCode(next);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => confirm(s, { phone: next, code, pin: s.pin })),
    );
    assert.deepEqual(
      answers.map((a) => a.status).sort(),
      [200, 400, 400, 400, 400],
      JSON.stringify(answers.map((a) => a.body)),
    );
    const updated = (await events(t, 'user.updated')).filter(
      (e) => (e.data.user as { id: string }).id === s.user.id,
    );
    assert.equal(updated.length, 1);
  });

  test('the move stands when the notice to the old number cannot be sent; the log names no whole number', async () => {
    const s = await signUp(t);
    const next = uniquePhone();
    await start(s, next);
    const code = t.sms.lastCode(next);
    t.sms.status = 500;
    try {
      const moved = await confirm(s, { phone: next, code, pin: s.pin });
      assert.equal(moved.status, 200);
    } finally {
      t.sms.status = 202;
    }
    const warning = t.logs.find((l) => l.includes('phone number change could not be sent'));
    assert.ok(warning, 'logged');
    assert.ok(!warning.includes(s.phone) && !warning.includes(next), warning);
  });
});

describe('phone change with ENUMERATION_PROTECTION and limits', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { ENUMERATION_PROTECTION: 'true' } });
  });
  after(() => t.close());

  test('a number another account has answers like any other; only its owner hears of the attempt', async () => {
    const s = await signUp(t);
    const other = await signUp(t);
    const before = t.sms.messagesTo(other.phone).length;
    const res = await t.request('POST', '/users/me/phone', {
      token: s.access_token,
      body: { phone: other.phone },
      ip: uniqueIp(),
    });
    assert.equal(res.status, 200);
    const texts = t.sms.messagesTo(other.phone);
    assert.equal(texts.length, before + 1);
    assert.match(texts.at(-1) as string, /tried to move another account to this number/);
    assert.doesNotMatch(texts.at(-1) as string, /\d{6}/, 'no code');
  });

  test("otp/send's 3 per hour per number apply to the new number", async () => {
    const s = await signUp(t);
    const next = uniquePhone();
    const ask = () =>
      t.request('POST', '/users/me/phone', { token: s.access_token, body: { phone: next }, ip: uniqueIp() });
    for (let i = 0; i < 3; i++) assert.equal((await ask()).status, 200);
    const fourth = await ask();
    assert.equal(fourth.status, 429);
    assert.equal(fourth.body.error.code, 'RATE_LIMITED');
  });
});
