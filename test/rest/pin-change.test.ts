import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { translate } from '../../src/i18n/languages.ts';
import {
  createTestApp,
  events,
  type SignedUp,
  signUp,
  type TestApp,
  uniqueIp,
  verifiedTempToken,
} from '../helpers/app.ts';

// POST /users/me/pin: a PIN changed by a person who knows it. The other sessions end, the phone is told,
// and the passkeys and recovery codes stay.

describe('POST /users/me/pin', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'signin_phone=1000/900,signin_address=1000/900' } });
  });
  after(() => t.close());

  const NEW_PIN = '730194';
  const change = (s: SignedUp, body: Record<string, unknown>, token = s.access_token) =>
    t.request('POST', '/users/me/pin', { token, body });
  const signin = (phone: string, pin: string) =>
    t.request('POST', '/auth/signin', { body: { phone, pin }, ip: uniqueIp() });
  const refresh = (token: string) => t.request('POST', '/auth/refresh', { body: { refresh_token: token } });

  test('changes the PIN, ends every other session and sign-on, and tells the phone', async () => {
    const s = await signUp(t);
    const other = await signin(s.phone, s.pin);
    await t.c.db.query(
      "INSERT INTO sso_sessions (token_hash, user_id, auth_time, expires_at, amr) VALUES ('h-' || $1, $1::uuid, now(), now() + interval '1 day', '{pwd}')",
      [s.user.id],
    );
    const res = await change(s, { current_pin: s.pin, new_pin: NEW_PIN });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.sessions_ended, 1);
    assert.equal(res.body.data.changed_at, t.clock.now().toISOString());

    assert.equal(
      (await signin(s.phone, s.pin)).body.error.code,
      'INVALID_CREDENTIALS',
      'the old PIN is gone',
    );
    assert.equal((await signin(s.phone, NEW_PIN)).status, 200);
    assert.equal((await refresh(other.body.data.refresh_token)).body.error.code, 'INVALID_REFRESH_TOKEN');
    assert.equal((await refresh(s.refresh_token)).status, 200, 'the session that asked stays');
    const signOns = await t.c.db.query('SELECT 1 FROM sso_sessions WHERE user_id = $1', [s.user.id]);
    assert.equal(signOns.length, 0, 'no browser stays signed in by the old PIN');

    const revoked = (await events(t, 'session.revoked')).filter((e) => e.data.user_id === s.user.id);
    assert.deepEqual(
      revoked.map((e) => e.data.reason),
      ['pin_changed'],
      'the other session, and only it',
    );
    const changed = (await events(t, 'user.pin_changed')).filter((e) => e.data.user_id === s.user.id);
    assert.deepEqual(
      changed.map((e) => e.data),
      [{ user_id: s.user.id, changed_at: res.body.data.changed_at, sessions_ended: 1 }],
    );
    assert.equal(t.sms.messagesTo(s.phone).at(-1), translate('en', 'phone.pin_changed'));
  });

  test('a wrong current PIN changes nothing and counts toward the lock', async () => {
    const s = await signUp(t);
    const wrong = await change(s, { current_pin: '918273', new_pin: NEW_PIN });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error.code, 'INVALID_CREDENTIALS');
    for (let i = 0; i < 10; i++) await change(s, { current_pin: '918273', new_pin: NEW_PIN });
    assert.equal(
      (await change(s, { current_pin: s.pin, new_pin: NEW_PIN })).body.error.code,
      'ACCOUNT_LOCKED',
    );
    assert.equal((await events(t, 'user.pin_changed')).filter((e) => e.data.user_id === s.user.id).length, 0);
  });

  test('the new PIN follows the PIN rules and differs from the current one; each error names its field', async () => {
    const s = await signUp(t);
    for (const [body, field] of [
      [{ current_pin: s.pin, new_pin: '1234' }, 'new_pin'],
      [{ current_pin: s.pin, new_pin: '12' }, 'new_pin'],
      [{ current_pin: s.pin, new_pin: s.pin }, 'new_pin'],
      [{ current_pin: 'abcd', new_pin: NEW_PIN }, 'current_pin'],
    ] as const) {
      const res = await change(s, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error.code, 'INVALID_PIN');
      assert.equal(res.body.error.details.field, field, JSON.stringify(body));
    }
    assert.equal((await signin(s.phone, s.pin)).status, 200, 'the PIN is unchanged');
    const missing = await change(s, { current_pin: s.pin });
    assert.equal(missing.status, 400);
    assert.equal(
      (await t.request('POST', '/users/me/pin', { body: { current_pin: s.pin, new_pin: NEW_PIN } })).status,
      401,
    );
  });

  test('two changes from the same current PIN at once: one changes it, the other is refused', async () => {
    const s = await signUp(t);
    const [a, b] = await Promise.all([
      change(s, { current_pin: s.pin, new_pin: NEW_PIN }),
      change(s, { current_pin: s.pin, new_pin: '602817' }),
    ]);
    assert.deepEqual([a.status, b.status].sort(), [200, 401]);
    const won = a.status === 200 ? NEW_PIN : '602817';
    assert.equal((await signin(s.phone, won)).status, 200);
  });

  test('passkeys and recovery codes stay', async () => {
    const s = await signUp(t);
    const made = await t.request('POST', '/users/me/recovery-codes', {
      token: s.access_token,
      body: { pin: s.pin },
    });
    assert.equal(made.status, 200);
    assert.equal((await change(s, { current_pin: s.pin, new_pin: NEW_PIN })).status, 200);
    const left = await t.request('GET', '/users/me/recovery-codes', { token: s.access_token });
    assert.equal(left.body.data.remaining, 10);
  });

  test('a change does not move when the PIN was last reset: a later reset still ends what was made before the change', async () => {
    const s = await signUp(t);
    const made = await t.request('POST', '/users/me/recovery-codes', {
      token: s.access_token,
      body: { pin: s.pin },
    });
    assert.equal(made.status, 200);
    t.clock.advance(60);
    assert.equal((await change(s, { current_pin: s.pin, new_pin: NEW_PIN })).status, 200);
    t.clock.advance(60);
    const temp_token = await verifiedTempToken(t, s.phone, 'pin_reset');
    const reset = await t.request('POST', '/auth/pin/reset', {
      body: { temp_token, pin: '582047' },
      ip: uniqueIp(),
    });
    assert.equal(reset.status, 200);
    const left = await t.request('GET', '/users/me/recovery-codes', {
      token: reset.body.data.access_token,
    });
    assert.equal(left.body.data.remaining, 0, 'the set made under the first PIN is ended by the reset');
  });
});
