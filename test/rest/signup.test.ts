import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  createTestApp,
  events,
  signUp,
  type TestApp,
  uniqueHandle,
  uniqueIp,
  uniquePhone,
  verifiedTempToken,
} from '../helpers/app.ts';

describe('POST /auth/signup (spec)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const signup = (body: Record<string, unknown>) =>
    t.request('POST', '/auth/signup', { body, ip: uniqueIp() });

  test('answers the user subset, tokens and expires_in 900', async () => {
    const phone = uniquePhone();
    const handle = uniqueHandle();
    const temp_token = await verifiedTempToken(t, phone, 'signup');
    const res = await signup({ temp_token, pin: '480715', handle, name: 'Ada Lovelace' });
    assert.equal(res.status, 200);
    assert.equal(res.body.success, true);
    const { user, access_token, refresh_token, expires_in } = res.body.data;
    // The same user object as a sign-in's (the spec's sign-up fields among them).
    const signedIn = await t.request('POST', '/auth/signin', { body: { phone, pin: '480715' } });
    assert.deepEqual(user, signedIn.body.data.user);
    for (const field of ['id', 'phone', 'handle', 'name', 'avatar_url', 'kyc_status', 'created_at'])
      assert.ok(field in user, field);
    assert.match(user.id, /^[0-9a-f-]{36}$/);
    assert.equal(user.phone, phone);
    assert.equal(user.handle, handle);
    assert.equal(user.name, 'Ada Lovelace');
    assert.equal(user.avatar_url, null);
    assert.equal(user.kyc_status, 'none');
    assert.ok(!Number.isNaN(Date.parse(user.created_at)));
    assert.equal(access_token.split('.').length, 3);
    assert.equal(typeof refresh_token, 'string');
    assert.equal(expires_in, 900);
  });

  test('name left out is null; country comes from the phone number', async () => {
    const { user } = await signUp(t);
    assert.equal(user.name, null);
    const row = (
      await t.c.db.query<{ country: string; language: string | null }>(
        'SELECT country, language FROM users WHERE id = $1',
        [user.id],
      )
    )[0];
    assert.equal(row.country, 'US');
    assert.equal(row.language, null);
  });

  test('writes user.created and session.created with the spec payloads', async () => {
    const s = await signUp(t, { name: 'Grace', device: { name: 'Pixel 9', platform: 'android' } });
    const created = (await events(t, 'user.created')).find(
      (e) => (e.data.user as { id: string }).id === s.user.id,
    );
    assert.ok(created);
    assert.deepEqual(created.data, {
      user: { id: s.user.id, phone: s.phone, handle: s.handle, name: 'Grace', created_at: s.user.created_at },
    });
    const session = (await events(t, 'session.created')).find((e) => e.data.user_id === s.user.id);
    assert.ok(session);
    assert.deepEqual(Object.keys(session.data).sort(), [
      'device_name',
      'ip_address',
      'platform',
      'session_id',
      'user_id',
    ]);
    assert.equal(session.data.device_name, 'Pixel 9');
    assert.equal(session.data.platform, 'android');
    assert.match(session.data.ip_address as string, /^198\.1[89]\.\d{1,3}\.\*$/, 'D18: masked');
  });

  test('the PIN is stored as argon2id, never as itself', async () => {
    const s = await signUp(t, { pin: '583920' });
    const row = (
      await t.c.db.query<{ pin_hash: string }>('SELECT pin_hash FROM users WHERE id = $1', [s.user.id])
    )[0];
    assert.match(row.pin_hash, /^\$argon2id\$v=19\$m=7168,t=5,p=1,keyid=/, 'P87, P114');
    assert.ok(!row.pin_hash.includes('583920'));
  });

  test('malformed and trivial PINs are INVALID_PIN', async () => {
    const temp_token = await verifiedTempToken(t, uniquePhone(), 'signup');
    for (const pin of [
      '123',
      '1234567',
      '12a4',
      '１２３４',
      '0000',
      '999999',
      '1234',
      '654321',
      '7890',
      '1212',
      '2580',
      '112233',
      4821,
    ]) {
      const res = await signup({ temp_token, pin, handle: uniqueHandle() });
      assert.equal(res.status, 400, String(pin));
      assert.equal(
        res.body.error.code,
        typeof pin === 'number' ? 'INVALID_REQUEST' : 'INVALID_PIN',
        String(pin),
      );
      assert.equal(res.body.error.details.field, 'pin');
    }
    assert.equal(
      (await signup({ temp_token, pin: '480715', handle: uniqueHandle() })).status,
      200,
      'the token survived',
    );
  });

  test('handle rules: length, charset, case, first character', async () => {
    const temp_token = await verifiedTempToken(t, uniquePhone(), 'signup');
    for (const handle of ['ab', 'a'.repeat(31), 'Alice', 'ali-ce', 'ali ce', '1alice', '_alice', 'élise']) {
      const res = await signup({ temp_token, pin: '480715', handle });
      assert.equal(res.status, 400, handle);
      assert.equal(res.body.error.code, 'INVALID_HANDLE', handle);
    }
    const suffix = uniqueHandle().slice(1, 8);
    for (const handle of [`a${'b'.repeat(22)}${suffix}`, `x_${suffix}`]) {
      const ok = await signup({
        temp_token: await verifiedTempToken(t, uniquePhone(), 'signup'),
        pin: '480715',
        handle,
      });
      assert.equal(ok.status, 200, handle);
    }
  });

  test('reserved handles are HANDLE_RESERVED (409)', async () => {
    const temp_token = await verifiedTempToken(t, uniquePhone(), 'signup');
    for (const handle of ['admin', 'root', 'support', 'api', 'oauth', 'www', 'settings']) {
      const res = await signup({ temp_token, pin: '480715', handle });
      assert.equal(res.status, 409, handle);
      assert.equal(res.body.error.code, 'HANDLE_RESERVED', handle);
    }
  });

  test('a taken handle is HANDLE_TAKEN and leaves the temp_token usable', async () => {
    const first = await signUp(t);
    const temp_token = await verifiedTempToken(t, uniquePhone(), 'signup');
    const res = await signup({ temp_token, pin: '480715', handle: first.handle });
    assert.equal(res.status, 409);
    assert.equal(res.body.error.code, 'HANDLE_TAKEN');
    assert.equal((await signup({ temp_token, pin: '480715', handle: uniqueHandle() })).status, 200);
  });

  test('race: two sign-ups for one handle at once: exactly one wins, the other is HANDLE_TAKEN', async () => {
    const handle = uniqueHandle();
    const tokens = await Promise.all([1, 2].map(() => verifiedTempToken(t, uniquePhone(), 'signup')));
    const answers = await Promise.all(
      tokens.map((temp_token) => signup({ temp_token, pin: '480715', handle })),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409]);
    assert.equal(answers.find((a) => a.status === 409)?.body.error.code, 'HANDLE_TAKEN');
  });

  test('a temp_token is single use: the second sign-up is INVALID_TOKEN (401) naming temp_token', async () => {
    const temp_token = await verifiedTempToken(t, uniquePhone(), 'signup');
    assert.equal((await signup({ temp_token, pin: '480715', handle: uniqueHandle() })).status, 200);
    const again = await signup({ temp_token, pin: '480715', handle: uniqueHandle() });
    assert.equal(again.status, 401);
    assert.equal(again.body.error.code, 'INVALID_TOKEN');
    assert.equal(again.body.error.details.field, 'temp_token');
  });

  test('unknown temp_token and one verified for pin_reset are INVALID_TOKEN', async () => {
    assert.equal(
      (await signup({ temp_token: 'nope', pin: '480715', handle: uniqueHandle() })).body.error.code,
      'INVALID_TOKEN',
    );
    const { phone } = await signUp(t);
    const resetToken = await verifiedTempToken(t, phone, 'pin_reset');
    const res = await signup({ temp_token: resetToken, pin: '480715', handle: uniqueHandle() });
    assert.equal(res.body.error.code, 'INVALID_TOKEN');
  });

  test('temp_token lifetime 600 s (clock moved)', async () => {
    const a = await verifiedTempToken(t, uniquePhone(), 'signup');
    const b = await verifiedTempToken(t, uniquePhone(), 'signup');
    t.clock.advance(599);
    assert.equal((await signup({ temp_token: a, pin: '480715', handle: uniqueHandle() })).status, 200);
    t.clock.advance(2);
    const late = await signup({ temp_token: b, pin: '480715', handle: uniqueHandle() });
    assert.equal(late.status, 401);
    assert.equal(late.body.error.code, 'INVALID_TOKEN');
  });

  test('race: one temp_token used by 10 sign-ups at once creates one account', async () => {
    const phone = uniquePhone();
    const temp_token = await verifiedTempToken(t, phone, 'signup');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => signup({ temp_token, pin: '480715', handle: uniqueHandle() })),
    );
    assert.equal(answers.filter((a) => a.status === 200).length, 1);
    assert.ok(answers.filter((a) => a.status !== 200).every((a) => a.body.error.code === 'INVALID_TOKEN'));
    const rows = await t.c.db.query('SELECT 1 FROM users WHERE phone = $1', [phone]);
    assert.equal(rows.length, 1);
  });

  test('a name over 100 characters or empty is INVALID_REQUEST', async () => {
    const temp_token = await verifiedTempToken(t, uniquePhone(), 'signup');
    for (const name of ['', '   ', 'x'.repeat(101)]) {
      const res = await signup({ temp_token, pin: '480715', handle: uniqueHandle(), name });
      assert.equal(res.body.error.code, 'INVALID_REQUEST');
      assert.equal(res.body.error.details.field, 'name');
    }
  });

  test('an unknown device platform is INVALID_REQUEST; so is a device name over 100 characters', async () => {
    const temp_token = await verifiedTempToken(t, uniquePhone(), 'signup');
    const attempt = (device: Record<string, unknown>) =>
      signup({ temp_token, pin: '480715', handle: uniqueHandle(), device });
    for (const device of [{ platform: 'symbian' }, { name: 'x'.repeat(101), platform: 'ios' }]) {
      const res = await attempt(device);
      assert.equal(res.body.error.code, 'INVALID_REQUEST', JSON.stringify(device).slice(0, 40));
    }
    assert.equal((await attempt({ name: 'x'.repeat(100), platform: 'ios' })).status, 200);
  });
});
