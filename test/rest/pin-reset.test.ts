import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { movePhone } from '../../src/storage/rules/phone-change.ts';
import {
  createTestApp,
  events,
  signUp,
  type TestApp,
  uniqueIp,
  uniquePhone,
  verifiedTempToken,
} from '../helpers/app.ts';
import { meanwhileUncommitted } from '../helpers/database.ts';

describe('POST /auth/pin/reset', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'signin_phone=1000/900' } });
  });
  after(() => t.close());

  const reset = (body: Record<string, unknown>) =>
    t.request('POST', '/auth/pin/reset', { body, ip: uniqueIp() });
  const signin = (phone: string, pin: string) =>
    t.request('POST', '/auth/signin', { body: { phone, pin }, ip: uniqueIp() });

  test('sets the new PIN, revokes every session (session.revoked: pin_reset) and signs in on a new one', async () => {
    const s = await signUp(t);
    const other = await signin(s.phone, s.pin);
    const temp_token = await verifiedTempToken(t, s.phone, 'pin_reset');
    const res = await reset({ temp_token, pin: '730194', device: { name: 'New phone', platform: 'ios' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.user.id, s.user.id);
    assert.equal(res.body.data.expires_in, 900);
    assert.ok(res.body.data.access_token && res.body.data.refresh_token);

    assert.equal((await signin(s.phone, s.pin)).body.error.code, 'INVALID_CREDENTIALS', 'old PIN is gone');
    assert.equal((await signin(s.phone, '730194')).status, 200);
    for (const token of [s.refresh_token, other.body.data.refresh_token]) {
      const r = await t.request('POST', '/auth/refresh', { body: { refresh_token: token } });
      assert.equal(r.body.error.code, 'INVALID_REFRESH_TOKEN');
    }
    const revoked = (await events(t, 'session.revoked')).filter((e) => e.data.user_id === s.user.id);
    assert.equal(revoked.length, 2);
    assert.ok(revoked.every((e) => e.data.reason === 'pin_reset'));
    const created = (await events(t, 'session.created')).filter((e) => e.data.user_id === s.user.id);
    assert.equal(created.at(-2)?.data.device_name, 'New phone');
  });

  test('unlocks a locked account', async () => {
    const s = await signUp(t);
    for (let i = 0; i < 10; i++) await signin(s.phone, '918273');
    assert.equal((await signin(s.phone, s.pin)).body.error.code, 'ACCOUNT_LOCKED');
    const temp_token = await verifiedTempToken(t, s.phone, 'pin_reset');
    assert.equal((await reset({ temp_token, pin: '730194' })).status, 200);
    assert.equal((await signin(s.phone, '730194')).status, 200);
  });

  test('the new PIN follows the PIN rules; a refused PIN leaves the temp_token usable', async () => {
    const s = await signUp(t);
    const temp_token = await verifiedTempToken(t, s.phone, 'pin_reset');
    const bad = await reset({ temp_token, pin: '1111' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'INVALID_PIN');
    assert.equal((await reset({ temp_token, pin: '730194' })).status, 200);
  });

  test('a sign-up temp_token, a used one and an unknown one are INVALID_TOKEN', async () => {
    const s = await signUp(t);
    const signupToken = await verifiedTempToken(
      t,
      (await import('../helpers/app.ts')).uniquePhone(),
      'signup',
    );
    assert.equal((await reset({ temp_token: signupToken, pin: '730194' })).body.error.code, 'INVALID_TOKEN');
    const temp_token = await verifiedTempToken(t, s.phone, 'pin_reset');
    assert.equal((await reset({ temp_token, pin: '730194' })).status, 200);
    const used = await reset({ temp_token, pin: '730194' });
    assert.equal(used.status, 401);
    assert.equal(used.body.error.details.field, 'temp_token');
    assert.equal((await reset({ temp_token: 'x', pin: '730194' })).body.error.code, 'INVALID_TOKEN');
  });

  test('a reset for a number the account is moving off at that moment leaves the account alone', async () => {
    const s = await signUp(t);
    const temp_token = await verifiedTempToken(t, s.phone, 'pin_reset');
    const next = uniquePhone();
    // On PostgreSQL the reset waits for the uncommitted move, then finds no account on the number.
    const res = await meanwhileUncommitted(
      t.c.db,
      async (tx) => {
        await movePhone(tx, { userId: s.user.id, phone: next, pinVersion: 0, now: t.clock.now() });
      },
      () => reset({ temp_token, pin: '730194' }),
      '%UPDATE users SET pin_hash%',
    );
    assert.equal(res.status, 404, JSON.stringify(res.body));
    assert.equal(res.body.error.code, 'PHONE_NOT_FOUND');
    assert.equal((await signin(next, s.pin)).status, 200, 'the PIN stays');
    assert.equal((await signin(next, '730194')).body.error.code, 'INVALID_CREDENTIALS');
  });
});
