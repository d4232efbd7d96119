import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { hash } from '@node-rs/argon2';
import { hmac } from '../../src/domain/crypto.ts';
import {
  createTestApp,
  events,
  signUp,
  type TestApp,
  uniqueIp,
  uniquePhone,
  verifiedTempToken,
} from '../helpers/app.ts';
import { testSecrets } from '../helpers/database.ts';
import { signInHeldAtPinCheck } from '../helpers/pin-gate.ts';
import { REST_USER_FIELDS as USER_FIELDS } from '../helpers/spec-fields.ts';

describe('POST /auth/signin (spec)', () => {
  let t: TestApp;
  before(async () => {
    // The per-phone limit (5 per 15 min) is tested on its own below; here it must not hide the lock.
    t = await createTestApp({ env: { RATE_LIMITS: 'signin_phone=1000/900,signin_address=1000/900' } });
  });
  after(() => t.close());

  /** Stores the account's PIN hashed as before P87 (argon2id with OWASP's 19 MiB configuration, t=2). */
  const hashAsBeforeP87 = async (s: { user: { id: string }; pin: string }) => {
    const earlier = await hash(hmac(testSecrets.pinPepper, s.pin).toString('base64url'), {
      algorithm: 2,
      memoryCost: 19_456,
      timeCost: 2,
      parallelism: 1,
    });
    await t.c.db.query('UPDATE users SET pin_hash = $2 WHERE id = $1', [s.user.id, earlier]);
    return earlier;
  };
  const stored = async (userId: string) =>
    (
      await t.c.db.query<{ pin_hash: string; updated_at: Date }>(
        'SELECT pin_hash, updated_at FROM users WHERE id = $1',
        [userId],
      )
    )[0];

  const signin = (phone: string, pin: unknown, extra: Record<string, unknown> = {}) =>
    t.request('POST', '/auth/signin', { body: { phone, pin, ...extra }, ip: extra.ip as string | undefined });

  test('answers the whole REST user (every field), tokens, expires_in 900; writes session.created', async () => {
    const s = await signUp(t);
    const res = await t.request('POST', '/auth/signin', {
      body: { phone: s.phone, pin: s.pin, device: { name: "Ada's iPhone", platform: 'ios' } },
      ip: '203.0.113.77',
    });
    assert.equal(res.status, 200);
    const { user, access_token, refresh_token, expires_in } = res.body.data;
    assert.deepEqual(Object.keys(user).sort(), USER_FIELDS);
    assert.equal(user.phone_verified, true);
    assert.equal(user.bio, null);
    assert.equal(user.language, null);
    assert.equal(user.country, 'US');
    assert.equal(user.kyc_status, 'none');
    assert.ok(access_token && refresh_token);
    assert.equal(expires_in, 900);
    const ev = (await events(t, 'session.created')).filter((e) => e.data.user_id === s.user.id);
    assert.equal(ev.length, 2, 'one for sign-up, one for sign-in');
    assert.deepEqual(ev[1].data, {
      user_id: s.user.id,
      session_id: ev[1].data.session_id,
      device_name: "Ada's iPhone",
      platform: 'ios',
      ip_address: '203.0.113.*',
    });
  });

  test('another spelling of the phone signs into the same account (parsed once per request)', async () => {
    const s = await signUp(t);
    // +1650XXXXXXX as a person types it: +1 (650) XXX-XXXX
    const spelled = `+1 (${s.phone.slice(2, 5)}) ${s.phone.slice(5, 8)}-${s.phone.slice(8)}`;
    const res = await signin(spelled, s.pin);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.user.id, s.user.id);
    assert.equal(res.body.data.user.phone, s.phone);
  });

  test('wrong PIN and unknown phone are both INVALID_CREDENTIALS (401)', async () => {
    const s = await signUp(t);
    const wrong = await signin(s.phone, '918273');
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error.code, 'INVALID_CREDENTIALS');
    const unknown = await signin(uniquePhone(), '918273');
    assert.equal(unknown.status, 401);
    assert.equal(unknown.body.error.code, 'INVALID_CREDENTIALS');
    assert.equal(unknown.body.error.message, wrong.body.error.message, 'no hint which one was wrong');
  });

  test('malformed phone is INVALID_PHONE, malformed PIN is INVALID_PIN and costs no attempt', async () => {
    assert.equal((await signin('555', '482916')).body.error.code, 'INVALID_PHONE');
    assert.equal((await signin(uniquePhone(), '12')).body.error.code, 'INVALID_PIN');
    const s = await signUp(t);
    for (const pin of ['12', '1234567', 'abcd', '12 34', '', '１２３４', '12.3', ...Array(5).fill('00')])
      assert.equal((await signin(s.phone, pin)).body.error.code, 'INVALID_PIN', String(pin));
    assert.equal((await signin(s.phone, s.pin)).status, 200, 'twelve malformed PINs are no lock (D9)');
  });

  test('10 consecutive wrong PINs lock the account for 1 hour; the right PIN is refused meanwhile', async () => {
    const s = await signUp(t);
    for (let i = 1; i <= 9; i++)
      assert.equal((await signin(s.phone, '918273')).body.error.code, 'INVALID_CREDENTIALS', `try ${i}`);
    const tenth = await signin(s.phone, '918273');
    assert.equal(tenth.status, 403);
    assert.equal(tenth.body.error.code, 'ACCOUNT_LOCKED');
    const lockedUntil = Date.parse(tenth.body.error.details.locked_until);
    assert.equal(lockedUntil, t.clock.now().getTime() + 3600_000);
    const right = await signin(s.phone, s.pin);
    assert.equal(right.status, 403);
    assert.equal(right.body.error.code, 'ACCOUNT_LOCKED');
    assert.equal(
      Date.parse(right.body.error.details.locked_until),
      lockedUntil,
      'the same lock, not null (P51)',
    );
    t.clock.advance(3599);
    assert.equal((await signin(s.phone, s.pin)).body.error.code, 'ACCOUNT_LOCKED');
    t.clock.advance(2);
    assert.equal((await signin(s.phone, s.pin)).status, 200, 'the lock has passed');
  });

  test('a correct PIN resets the count of wrong ones', async () => {
    const s = await signUp(t);
    for (let i = 0; i < 9; i++) await signin(s.phone, '918273');
    assert.equal((await signin(s.phone, s.pin)).status, 200);
    for (let i = 0; i < 9; i++)
      assert.equal((await signin(s.phone, '918273')).body.error.code, 'INVALID_CREDENTIALS');
  });

  test("a PIN hash made with earlier parameters is made again with today's on a correct PIN only", async () => {
    const s = await signUp(t);
    const earlier = await hashAsBeforeP87(s);
    assert.equal((await signin(s.phone, '918273')).status, 401);
    const before = await stored(s.user.id);
    assert.equal(before.pin_hash, earlier, 'a wrong PIN leaves it');
    assert.equal((await signin(s.phone, s.pin)).status, 200, 'the earlier hash still verifies');
    const rehashed = await stored(s.user.id);
    assert.match(rehashed.pin_hash, /^\$argon2id\$v=19\$m=7168,t=5,p=1,keyid=/);
    assert.deepEqual(rehashed.updated_at, before.updated_at, 'no change of the account');
    assert.equal((await signin(s.phone, s.pin)).status, 200, 'the new hash verifies');
    assert.equal((await stored(s.user.id)).pin_hash, rehashed.pin_hash, "today's hash is left as it is");
  });

  test('a PIN reset while an earlier hash is being checked keeps the new PIN', async () => {
    const s = await signUp(t);
    await hashAsBeforeP87(s);
    const temp_token = await verifiedTempToken(t, s.phone, 'pin_reset');
    const held = await signInHeldAtPinCheck(t, s);
    const reset = await t.request('POST', '/auth/pin/reset', { body: { temp_token, pin: '204913' } });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    held.release();
    // Its PIN was right when checked, so it went on to hash it again; that hash must not replace the reset's.
    // (It opens no session: its PIN is no longer the account's, P88.)
    assert.equal((await held.answer).status, 401);
    assert.equal((await signin(s.phone, '204913')).status, 200, "the reset's PIN");
    assert.equal((await signin(s.phone, s.pin)).status, 401, 'not the old one');
  });

  test('race (Keycloak CVE-2024-4629 pattern): 30 parallel wrong PINs get at most 10 evaluations', async () => {
    const s = await signUp(t);
    const answers = await Promise.all(Array.from({ length: 30 }, () => signin(s.phone, '918273')));
    const codes = answers.map((a) => a.body.error.code);
    // Evaluated attempts answer INVALID_CREDENTIALS, except the 10th, which answers ACCOUNT_LOCKED itself.
    assert.equal(codes.filter((c) => c === 'INVALID_CREDENTIALS').length, 9);
    assert.equal(codes.filter((c) => c === 'ACCOUNT_LOCKED').length, 21);
    // Every locked answer names the lock, also those that waited for the row while the 10th set it (a
    // null locked_until would say the operator locked the account, P51).
    const until = new Set(
      answers.filter((a) => a.status === 403).map((a) => a.body.error.details.locked_until),
    );
    assert.deepEqual([...until], [new Date(t.clock.now().getTime() + 3600_000).toISOString()]);
    const row = (
      await t.c.db.query<{ failed_pin_attempts: number }>(
        'SELECT failed_pin_attempts FROM users WHERE id = $1',
        [s.user.id],
      )
    )[0];
    assert.equal(row.failed_pin_attempts, 10);
    assert.equal((await signin(s.phone, s.pin)).body.error.code, 'ACCOUNT_LOCKED');
  });
});

describe('sign-in limits (spec "Limits")', () => {
  test('5 sign-ins per phone per 15 minutes, counted whatever the outcome', async () => {
    const t = await createTestApp();
    try {
      const s = await signUp(t);
      for (let i = 0; i < 5; i++) {
        const res = await t.request('POST', '/auth/signin', {
          body: { phone: s.phone, pin: s.pin },
          ip: uniqueIp(),
        });
        assert.equal(res.status, 200);
        assert.equal(res.headers['x-ratelimit-limit'], '5');
      }
      const sixth = await t.request('POST', '/auth/signin', {
        body: { phone: s.phone, pin: s.pin },
        ip: uniqueIp(),
      });
      assert.equal(sixth.status, 429);
      assert.equal(sixth.body.error.code, 'RATE_LIMITED');
      assert.ok(Number(sixth.headers['retry-after']) <= 900);
      t.clock.advance(900);
      assert.equal(
        (await t.request('POST', '/auth/signin', { body: { phone: s.phone, pin: s.pin } })).status,
        200,
      );
    } finally {
      await t.close();
    }
  });

  test('50 sign-ins per client address per 15 minutes', async () => {
    const t = await createTestApp({ env: { RATE_LIMITS: 'signin_address=3/900' } });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await t.request('POST', '/auth/signin', {
          body: { phone: uniquePhone(), pin: '918273' },
          ip: '192.0.2.9',
        });
        assert.equal(res.status, 401);
      }
      const res = await t.request('POST', '/auth/signin', {
        body: { phone: uniquePhone(), pin: '918273' },
        ip: '192.0.2.9',
      });
      assert.equal(res.status, 429);
      assert.equal(t.c.config.rateLimits.signin_address.limit, 3, 'D28: limits are configuration');
    } finally {
      await t.close();
    }
  });
});
