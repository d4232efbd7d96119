import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pkg from '../../package.json' with { type: 'json' };
import { buildMetricsApp } from '../../src/http/app.ts';
import { createTestApp, signUp, type TestApp } from '../helpers/app.ts';
import { freePort } from '../helpers/free-port.ts';

describe('the REST envelope for bad input, request ids, health', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const expectInvalid = (res: {
    status: number;
    body: { success: boolean; error: { code: string; message: string } };
  }) => {
    assert.equal(res.status, 400);
    assert.equal(res.body.success, false);
    assert.equal(res.body.error.code, 'INVALID_REQUEST');
    assert.ok(res.body.error.message.length > 0);
  };

  test('unknown routes answer NOT_FOUND in the envelope', async () => {
    const res = await t.request('GET', '/no/such/route');
    assert.equal(res.status, 404);
    assert.deepEqual(Object.keys(res.body.error).sort(), ['code', 'details', 'message']);
    assert.equal(res.body.error.code, 'NOT_FOUND');
  });

  test('a path parameter over 100 characters reaches its route; one that does not decode is INVALID_REQUEST', async () => {
    const u = await signUp(t);
    for (const url of [`/sessions/${'x'.repeat(300)}`, `/users/me/apps/${'x'.repeat(5000)}`]) {
      const long = await t.request('DELETE', url, { token: u.access_token });
      assert.equal(long.status, 404, url.slice(0, 20));
      assert.equal(long.body.error.code, 'NOT_FOUND');
    }
    const handle = await t.request('GET', `/users/@${'a'.repeat(101)}`);
    assert.equal(handle.body.error.code, 'NOT_FOUND', 'no such handle, as for a short one');
    expectInvalid(await t.request('DELETE', '/sessions/%E0%A4%A', { token: u.access_token }));
  });

  test('a request must come in whole within 300 s (Node’s limit, which Fastify turns off by default)', () => {
    // Node closes the connection of a request still incomplete after server.requestTimeout (408); 0 = never.
    assert.equal(t.app.server.requestTimeout, 300_000);
    assert.equal(t.app.server.headersTimeout, 60_000, 'and its headers within Node’s 60 s');
    assert.equal(buildMetricsApp(t.c).server.requestTimeout, 300_000, 'also on `callsign worker`’s /metrics');
  });

  test('malformed JSON, an empty JSON body, a JSON array and a wrong content type are INVALID_REQUEST', async () => {
    expectInvalid(
      await t.request('POST', '/auth/otp/send', {
        body: '{"phone": ',
        headers: { 'content-type': 'application/json' },
      }),
    );
    expectInvalid(
      await t.request('POST', '/auth/otp/send', { headers: { 'content-type': 'application/json' } }),
    );
    expectInvalid(await t.request('POST', '/auth/otp/send', { body: '[1,2]' }));
    expectInvalid(
      await t.request('POST', '/auth/otp/send', {
        body: 'phone=1',
        headers: { 'content-type': 'text/plain' },
      }),
    );
    expectInvalid(
      await t.request('POST', '/auth/otp/send', {
        body: 'phone=1',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    );
  });

  test('an oversized body is INVALID_REQUEST, not a 413 page or a 500', async () => {
    const res = await t.request('POST', '/auth/otp/send', {
      body: JSON.stringify({ phone: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expectInvalid(res);
    assert.match(res.body.error.message, /too large/);
  });

  test('a field of the wrong type names the field', async () => {
    const res = await t.request('POST', '/auth/otp/send', {
      body: { phone: 14155550100, purpose: 'signup' },
    });
    expectInvalid(res);
    assert.equal(res.body.error.details.field, 'phone');
  });

  test('X-Request-ID is echoed when given and made when not; a hostile one is replaced', async () => {
    const given = await t.request('GET', '/health', { headers: { 'x-request-id': 'abc-123' } });
    assert.equal(given.headers['x-request-id'], 'abc-123');
    const made = await t.request('GET', '/health');
    assert.match(String(made.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    const hostile = await t.request('GET', '/health', { headers: { 'x-request-id': 'a"\\b c' } });
    assert.notEqual(hostile.headers['x-request-id'], 'a"\\b c');
    assert.ok(
      t.logs.some((l) => l.includes('"abc-123"')),
      'the id is logged',
    );
  });

  test('/health answers {status: ok, version, timestamp} bare, with the package version', async () => {
    const res = await t.request('GET', '/health');
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['status', 'timestamp', 'version']);
    assert.equal(res.body.status, 'ok');
    assert.equal(res.body.version, pkg.version);
    assert.equal(res.body.timestamp, t.clock.now().toISOString());
    assert.ok(res.headers['x-ratelimit-limit'], 'D28: every REST answer carries the limit headers');
  });

  test('every REST answer carries X-RateLimit-*; the 100/min address limit covers other endpoints', async () => {
    const t2 = await createTestApp({ env: { RATE_LIMITS: 'rest_address=2/60' } });
    try {
      const a = await t2.request('GET', '/health', { ip: '192.0.2.50' });
      assert.equal(a.headers['x-ratelimit-limit'], '2');
      assert.equal(a.headers['x-ratelimit-remaining'], '1');
      await t2.request('GET', '/health', { ip: '192.0.2.50' });
      const third = await t2.request('GET', '/health', { ip: '192.0.2.50' });
      assert.equal(third.status, 429);
      assert.equal(third.body.error.code, 'RATE_LIMITED');
      assert.ok(Number(third.headers['retry-after']) >= 1);
      t2.clock.advance(60);
      assert.equal((await t2.request('GET', '/health', { ip: '192.0.2.50' })).status, 200);
    } finally {
      await t2.close();
    }
  });

  test('/openapi.json documents the REST routes; /docs renders it', async () => {
    const doc = await t.request('GET', '/openapi.json');
    assert.equal(doc.status, 200);
    assert.equal(doc.body.openapi, '3.1.0', 'OpenAPI 3.1: its schemas are JSON Schema, null included');
    for (const path of [
      '/auth/otp/send',
      '/auth/otp/verify',
      '/auth/signup',
      '/auth/signin',
      '/auth/refresh',
      '/auth/logout',
      '/auth/pin/reset',
      '/health',
    ]) {
      assert.ok(doc.body.paths[path], path);
    }
    const ui = await t.request('GET', '/docs/');
    assert.equal(ui.status, 200);
    assert.match(String(ui.headers['content-type']), /html/);
  });

  test('answers are no-store (unless their route allows caching: JWKS, discovery) and nosniff', async () => {
    const s = await signUp(t);
    const answers = [
      await t.request('POST', '/auth/signin', { body: { phone: s.phone, pin: s.pin } }),
      await t.request('POST', '/auth/refresh', { body: { refresh_token: s.refresh_token } }),
      await t.request('GET', '/users/me', { token: s.access_token }),
      await t.request('GET', '/sessions', { token: s.access_token }),
      await t.request('GET', `/users/@${s.handle}`),
      await t.request('GET', '/no/such/route'),
    ];
    for (const res of answers) {
      assert.equal(res.headers['cache-control'], 'no-store', JSON.stringify(res.body));
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
    }
    assert.equal(
      (await t.request('GET', '/.well-known/jwks.json')).headers['cache-control'],
      'public, max-age=300',
    );
    assert.equal(
      (await t.request('GET', '/.well-known/openid-configuration')).headers['cache-control'],
      'public, max-age=300',
    );
  });

  test('secrets never reach the log: PIN, code, temp_token, tokens, the verification link, a token in a query', async () => {
    const s = await signUp(t, { pin: '860427' });
    const link = (await t.request('POST', '/kyc/initiate', { token: s.access_token })).body.data
      .verification_url;
    const linkPath = new URL(link).pathname;
    assert.equal((await t.app.inject({ method: 'GET', url: linkPath })).statusCode, 200);
    await t.request('GET', `/users/me?x=1&access_token=${s.access_token}`);
    await t.request('POST', '/auth/refresh', { body: { refresh_token: s.refresh_token } });
    await t.request('POST', '/auth/logout', {
      token: s.access_token,
      body: { refresh_token: s.refresh_token },
    });
    const code = t.sms.lastCode(s.phone);
    const all = t.logs.join('\n');
    assert.ok(all.length > 0);
    // A six-digit secret is looked for as a number of its own: any run of digits in a log line (a response
    // time such as 3.1860427512) holds one six-digit string or another by chance.
    const appears = (secret: string) =>
      /^\d+$/.test(secret) ? new RegExp(`(?<![\\d.])${secret}(?![\\d.])`).test(all) : all.includes(secret);
    for (const secret of ['860427', code, s.access_token, s.refresh_token, linkPath.split('/').at(-1)])
      assert.ok(!appears(secret as string), `leaked: ${secret}`);
    assert.ok(all.includes('"url":"/verify/[redacted]"'), 'the request is still logged');
    assert.ok(all.includes('"url":"/users/me?x=1&access_token=[redacted]"'));
  });

  test('a phone number or an ID token in a query string is masked in the log, as the bodies that carry them are', async () => {
    const s = await signUp(t);
    const digits = s.phone.slice(1);
    const phone = encodeURIComponent(s.phone);
    const idToken = 'eyJhbGciOiJSUzI1NiJ9.eyJwaG9uZSI6IisxNjUwIn0.c2lnbmF0dXJl';
    t.logs.length = 0;
    for (const url of [
      `/api/v1/users?phone=${phone}&limit=5`,
      `/authorize?client_id=rp&login_hint=${phone}`,
      `/authorize/logout?id_token_hint=${idToken}&state=kept`,
      `/admin/v1/users?q=${phone}`,
    ])
      await t.request('GET', url);
    const all = t.logs.join('\n');
    assert.ok(!all.includes(digits), `leaked: ${digits}`);
    assert.ok(!all.includes(idToken), 'leaked: the ID token');
    for (const logged of [
      '/api/v1/users?phone=[redacted]&limit=5',
      '/authorize?client_id=rp&login_hint=[redacted]',
      '/authorize/logout?id_token_hint=[redacted]&state=[redacted]',
      '/admin/v1/users?q=[redacted]',
    ])
      assert.ok(all.includes(`"url":"${logged}"`), logged);
  });

  test('/health answers 200 ok while Redis, holding the rate counters, does not answer: the limits count in the database', async () => {
    const port = await freePort(); // nothing listens there
    const t2 = await createTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${port}` } });
    try {
      const res = await t2.request('GET', '/health');
      assert.equal(res.status, 200);
      assert.equal(res.body.status, 'ok');
    } finally {
      await t2.close();
    }
  });

  test('/health answers 503 degraded when the database does not answer', async () => {
    const t2 = await createTestApp();
    try {
      await t2.c.db.close();
      const res = await t2.request('GET', '/health');
      assert.equal(res.status, 503);
      assert.equal(res.body.status, 'degraded');
      const other = await t2.request('POST', '/auth/otp/send', {
        body: { phone: '+14155550100', purpose: 'signup' },
      });
      assert.equal(other.status, 500, 'other endpoints fail closed');
      assert.equal(other.body.error.code, 'INTERNAL_ERROR');
      assert.ok(!JSON.stringify(other.body).includes('stack'));
    } finally {
      await t2.close();
    }
  });
});
