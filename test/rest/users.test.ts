import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, events, signUp, type TestApp, uniqueHandle, uniqueIp } from '../helpers/app.ts';
import { REST_USER_FIELDS as USER_FIELDS } from '../helpers/spec-fields.ts';

describe('profiles: /users/me, /users/@:handle, /users/handle/check', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const patch = (token: string, body: unknown) => t.request('PATCH', '/users/me', { token, body });

  test('GET /users/me: every field of the REST User, with its type; nulls for what was never set', async () => {
    const s = await signUp(t, { name: 'Ada' });
    const res = await t.request('GET', '/users/me', { token: s.access_token });
    assert.equal(res.status, 200);
    const u = res.body.data;
    assert.deepEqual(Object.keys(u).sort(), USER_FIELDS);
    assert.equal(u.id, s.user.id);
    assert.equal(u.phone, s.phone);
    assert.equal(u.phone_verified, true);
    assert.equal(u.handle, s.handle);
    assert.equal(u.name, 'Ada');
    for (const f of ['avatar_url', 'bio', 'language', 'kyc_country', 'kyc_verified_at'])
      assert.equal(u[f], null, f);
    assert.equal(u.country, 'US');
    assert.equal(u.kyc_status, 'none');
    for (const f of ['created_at', 'updated_at']) assert.ok(!Number.isNaN(Date.parse(u[f])), f);
  });

  test('GET /users/me needs a valid bearer token', async () => {
    const res = await t.request('GET', '/users/me');
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, 'INVALID_TOKEN');
  });

  test('PATCH changes only supplied fields, answers the updated user, emits user.updated with changed_fields', async () => {
    const s = await signUp(t, { name: 'Ada' });
    t.clock.advance(5);
    const res = await patch(s.access_token, {
      bio: 'Analyst',
      language: 'en-gb',
      avatar_url: 'https://img.example/a.png',
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.name, 'Ada', 'untouched');
    assert.equal(res.body.data.bio, 'Analyst');
    assert.equal(res.body.data.language, 'en-GB', 'canonical BCP 47');
    assert.equal(res.body.data.avatar_url, 'https://img.example/a.png');
    assert.ok(Date.parse(res.body.data.updated_at) > Date.parse(res.body.data.created_at));
    const ev = (await events(t, 'user.updated')).filter(
      (e) => (e.data.user as { id: string }).id === s.user.id,
    );
    assert.equal(ev.length, 1);
    assert.deepEqual(ev[0].data, {
      user: {
        id: s.user.id,
        handle: s.handle,
        name: 'Ada',
        avatar_url: 'https://img.example/a.png',
        updated_at: res.body.data.updated_at,
      },
      changed_fields: ['bio', 'avatar_url', 'language'],
    });
  });

  test('PATCH with nothing new writes no event; null clears a field', async () => {
    const s = await signUp(t, { name: 'Ada' });
    await patch(s.access_token, { bio: 'x' });
    const before = (await events(t, 'user.updated')).length;
    assert.equal((await patch(s.access_token, { name: 'Ada', bio: 'x' })).status, 200);
    assert.equal((await events(t, 'user.updated')).length, before);
    const cleared = await patch(s.access_token, { bio: null });
    assert.equal(cleared.body.data.bio, null);
    assert.equal((await events(t, 'user.updated')).length, before + 1);
  });

  test('profile bounds: name 1-100, bio 500, avatar_url https and 2048, language BCP 47 and 35; unknown fields refused', async () => {
    const s = await signUp(t);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ bio: 'x'.repeat(501) }, 'bio'],
      [{ avatar_url: 'http://img.example/a.png' }, 'avatar_url'],
      [{ avatar_url: 'not a url' }, 'avatar_url'],
      [{ avatar_url: `https://img.example/${'a'.repeat(2040)}` }, 'avatar_url'],
      [{ language: 'not a tag!' }, 'language'],
      [{ language: `en-${'abcdefgh-'.repeat(4)}x` }, 'language'],
      [{ phone: '+14155550100' }, 'phone'],
      [{ bio: 5 }, 'bio'],
    ];
    for (const [body, field] of cases) {
      const res = await patch(s.access_token, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error.code, 'INVALID_REQUEST', JSON.stringify(body));
      assert.equal(res.body.error.details.field, field, JSON.stringify(body));
    }
    assert.equal((await patch(s.access_token, { name: 'x'.repeat(100), bio: 'y'.repeat(500) })).status, 200);
  });

  test('handle change once per 30 days (HANDLE_COOLDOWN with retry_after); the sign-up handle starts none', async () => {
    const s = await signUp(t);
    const first = uniqueHandle();
    assert.equal(
      (await patch(s.access_token, { handle: first })).body.data.handle,
      first,
      'right after sign-up',
    );
    t.clock.advance(29 * 86400);
    const renewed = await t.request('POST', '/auth/refresh', { body: { refresh_token: s.refresh_token } });
    const token = renewed.body.data.access_token;
    const early = await patch(token, { handle: uniqueHandle() });
    assert.equal(early.status, 429);
    assert.equal(early.body.error.code, 'HANDLE_COOLDOWN');
    assert.equal(Date.parse(early.body.error.details.retry_after), t.clock.now().getTime() + 86400_000);
    assert.equal(
      (await patch(token, { handle: first, bio: 'same handle' })).status,
      200,
      'no change, no cooldown',
    );
    t.clock.advance(86400);
    const again = await t.request('POST', '/auth/refresh', {
      body: { refresh_token: renewed.body.data.refresh_token },
    });
    const later = await patch(again.body.data.access_token, { handle: uniqueHandle() });
    assert.equal(later.status, 200);
  });

  test('handles on PATCH: case, charset, reserved, taken; the old handle is free at once', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    assert.equal((await patch(a.access_token, { handle: 'Upper' })).body.error.code, 'INVALID_HANDLE');
    assert.equal((await patch(a.access_token, { handle: 'admin' })).body.error.code, 'HANDLE_RESERVED');
    const taken = await patch(a.access_token, { handle: b.handle });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.error.code, 'HANDLE_TAKEN');
    const fresh = uniqueHandle();
    assert.equal((await patch(a.access_token, { handle: fresh })).status, 200);
    assert.equal(
      (await t.request('GET', `/users/handle/check?handle=${a.handle}`)).body.data.available,
      true,
    );
  });

  test('race: two users claiming one handle at once: one wins, the other is HANDLE_TAKEN', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const handle = uniqueHandle();
    const answers = await Promise.all([patch(a.access_token, { handle }), patch(b.access_token, { handle })]);
    assert.deepEqual(answers.map((r) => r.status).sort(), [200, 409]);
  });

  test('race: two handle changes of one user at once: one passes the cooldown', async () => {
    const s = await signUp(t);
    const answers = await Promise.all([
      patch(s.access_token, { handle: uniqueHandle() }),
      patch(s.access_token, { handle: uniqueHandle() }),
    ]);
    assert.deepEqual(answers.map((r) => r.status).sort(), [200, 429]);
  });

  test('public profile: exactly id, handle, name, avatar_url, bio, kyc_status, created_at; no credentials', async () => {
    const s = await signUp(t, { name: 'Grace' });
    await patch(s.access_token, { bio: 'Admiral', language: 'en' });
    const res = await t.request('GET', `/users/@${s.handle}`);
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body.data).sort(), [
      'avatar_url',
      'bio',
      'created_at',
      'handle',
      'id',
      'kyc_status',
      'name',
    ]);
    assert.equal(res.body.data.bio, 'Admiral');
    const raw = JSON.stringify(res.body);
    assert.ok(
      !raw.includes(s.phone) && !raw.includes('"en"') && !raw.includes('"US"'),
      'no phone, language or country',
    );
  });

  test('public profile of an unknown or malformed handle is NOT_FOUND', async () => {
    for (const h of [uniqueHandle(), 'NoSuch', '%20']) {
      const res = await t.request('GET', `/users/@${h}`);
      assert.equal(res.status, 404, h);
      assert.equal(res.body.error.code, 'NOT_FOUND', h);
    }
  });

  test('handle check answers {handle, available, reason} with null, invalid, reserved, taken', async () => {
    const s = await signUp(t);
    const check = async (h: string) =>
      (await t.request('GET', `/users/handle/check?handle=${encodeURIComponent(h)}`, { ip: uniqueIp() })).body
        .data;
    const free = uniqueHandle();
    assert.deepEqual(await check(free), { handle: free, available: true, reason: null });
    assert.deepEqual(await check('Bad-Handle'), {
      handle: 'Bad-Handle',
      available: false,
      reason: 'invalid',
    });
    assert.deepEqual(await check('support'), { handle: 'support', available: false, reason: 'reserved' });
    assert.deepEqual(await check(s.handle), { handle: s.handle, available: false, reason: 'taken' });
    const missing = await t.request('GET', '/users/handle/check');
    assert.equal(missing.body.error.code, 'INVALID_REQUEST');
  });

  test('handle check: 30 per minute per address, with its own headers', async () => {
    const ip = '192.0.2.77';
    for (let i = 1; i <= 30; i++) {
      const res = await t.request('GET', `/users/handle/check?handle=${uniqueHandle()}`, { ip });
      assert.equal(res.status, 200);
      assert.equal(res.headers['x-ratelimit-limit'], '30');
    }
    const over = await t.request('GET', `/users/handle/check?handle=${uniqueHandle()}`, { ip });
    assert.equal(over.status, 429);
    assert.equal(over.body.error.code, 'RATE_LIMITED');
  });

  test('authenticated endpoints count 100 per minute per user, whatever the address', async () => {
    const t2 = await createTestApp({ env: { RATE_LIMITS: 'rest_user=3/60' } });
    try {
      const s = await signUp(t2);
      for (let i = 0; i < 3; i++) {
        const res = await t2.request('GET', '/users/me', { token: s.access_token, ip: uniqueIp() });
        assert.equal(res.status, 200);
        assert.equal(res.headers['x-ratelimit-limit'], '3');
      }
      const over = await t2.request('GET', '/users/me', { token: s.access_token, ip: uniqueIp() });
      assert.equal(over.status, 429);
    } finally {
      await t2.close();
    }
  });
});
