import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestApp, signUp, uniqueIp } from '../helpers/app.ts';
import { ADMIN_TOKEN } from '../helpers/oauth.ts';

// P36: /api/v1 counts every request against its address, and authenticated ones against the user token's
// user or the API key; past a limit it answers 429 too_many_requests with Retry-After.
test('/api/v1 rate limits: per user, per API key, per address, with X-RateLimit headers', async () => {
  const t = await createTestApp({
    env: { ADMIN_TOKEN, RATE_LIMITS: 'api_v1_user=3/60,api_v1_key=2/60,api_v1_address=5/60' },
  });
  try {
    const u = await signUp(t);
    const key = (await t.request('POST', '/admin/v1/api-keys', { token: ADMIN_TOKEN, body: { name: 's' } }))
      .body.key;
    const me = (ip: string) => t.request('GET', '/api/v1/users/me', { token: u.access_token, ip });
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push((await me(uniqueIp())).status);
    assert.deepEqual(codes, [200, 200, 200, 429], 'per user, whatever the address');
    const limited = await me(uniqueIp());
    assert.equal(limited.body.error, 'too_many_requests');
    assert.ok(Number(limited.headers['retry-after']) > 0);

    const lookup = (ip: string) => t.request('GET', `/api/v1/users/${u.user.id}`, { token: key, ip });
    const ok = await lookup(uniqueIp());
    assert.equal(ok.status, 200);
    assert.equal(ok.headers['x-ratelimit-limit'], '2');
    assert.equal(ok.headers['x-ratelimit-remaining'], '1');
    assert.equal((await lookup(uniqueIp())).status, 200);
    assert.equal((await lookup(uniqueIp())).status, 429, 'per API key');

    const ip = '203.0.113.77';
    const bad: number[] = [];
    for (let i = 0; i < 6; i++)
      bad.push((await t.request('GET', '/api/v1/users/me', { token: `nope-${i}`, ip })).status);
    assert.deepEqual(bad, [401, 401, 401, 401, 401, 429], 'per address, even without a valid token');
    t.clock.advance(60);
    assert.equal((await t.request('GET', '/api/v1/users/me', { token: 'nope', ip })).status, 401);
  } finally {
    await t.close();
  }
});
