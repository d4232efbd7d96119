import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type ConfigError, loadConfig } from '../../src/config/config.ts';
import { createTestApp, signUp, type TestApp } from '../helpers/app.ts';

// CORS_ORIGINS: a web app on its own origin calls the REST surface (and /api/v1's /me paths) from a browser;
// no other origin is answered, and the hosted pages, the admin API and the console never answer cross-origin.

const APP = 'https://app.example';
const ELSEWHERE = 'https://evil.example';

const preflight = (t: TestApp, url: string, origin: string, method = 'GET') =>
  t.request('OPTIONS', url, {
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'authorization, content-type, x-request-id',
    },
  });

describe('CORS_ORIGINS', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { CORS_ORIGINS: `${APP},http://localhost:5173` } });
  });
  after(() => t.close());

  test('a preflight from a listed origin names the URL’s methods and the headers; never credentials', async () => {
    const answer = await preflight(t, '/users/me', APP, 'PATCH');
    assert.equal(answer.status, 204);
    assert.equal(answer.headers['access-control-allow-origin'], APP);
    assert.deepEqual(String(answer.headers['access-control-allow-methods']).split(', ').sort(), [
      'DELETE',
      'GET',
      'PATCH',
    ]);
    assert.equal(answer.headers['access-control-allow-headers'], 'Authorization, Content-Type, X-Request-ID');
    assert.equal(answer.headers['access-control-allow-credentials'], undefined);
    assert.match(String(answer.headers.vary), /Origin/);
    assert.equal(answer.headers['x-ratelimit-remaining'], undefined, 'a preflight counts against nothing');
    const withParams = await preflight(t, '/sessions/00000000-0000-4000-8000-000000000000', APP, 'DELETE');
    assert.equal(withParams.headers['access-control-allow-methods'], 'DELETE');
  });

  test('a listed origin reads the answers and their headers; another origin gets no CORS header at all', async () => {
    const s = await signUp(t);
    const read = await t.request('GET', '/users/me', { token: s.access_token, headers: { origin: APP } });
    assert.equal(read.status, 200);
    assert.equal(read.headers['access-control-allow-origin'], APP);
    assert.match(String(read.headers['access-control-expose-headers']), /X-Request-ID/);
    assert.match(String(read.headers['access-control-expose-headers']), /X-RateLimit-Remaining/);
    const refused = await t.request('POST', '/auth/signin', {
      body: { phone: s.phone, pin: '000000' },
      headers: { origin: APP },
    });
    assert.equal(refused.headers['access-control-allow-origin'], APP, 'an error answer is readable too');
    for (const answer of [
      await preflight(t, '/users/me', ELSEWHERE),
      await t.request('GET', '/users/me', { token: s.access_token, headers: { origin: ELSEWHERE } }),
      await preflight(t, '/users/me', `${APP}:8443`),
    ])
      assert.equal(answer.headers['access-control-allow-origin'], undefined);
  });

  test('/api/v1’s /me paths answer a listed origin; the hosted pages, the admin API and the console never do', async () => {
    const api = await preflight(t, '/api/v1/users/me', APP);
    assert.equal(api.headers['access-control-allow-origin'], APP);
    for (const url of ['/authorize', '/authorize/account', '/admin/v1/users', '/console', '/api/v1/users'])
      assert.equal((await preflight(t, url, APP)).headers['access-control-allow-origin'], undefined, url);
  });
});

test('without CORS_ORIGINS no origin is answered; a listed origin must be exactly an origin', async () => {
  const t = await createTestApp();
  try {
    assert.equal((await preflight(t, '/users/me', APP)).headers['access-control-allow-origin'], undefined);
  } finally {
    await t.close();
  }
  const problems = (value: string) => {
    try {
      loadConfig({ CORS_ORIGINS: value });
      return [];
    } catch (err) {
      return (err as ConfigError).problems;
    }
  };
  assert.deepEqual(problems('https://app.example, http://localhost:5173'), []);
  // Browsers treat the whole loopback range, [::1] and *.localhost as potentially trustworthy.
  for (const loopback of [
    'http://127.0.0.1:3000',
    'http://127.1.2.3',
    'http://[::1]:8080',
    'http://app.localhost',
  ])
    assert.deepEqual(problems(loopback), [], loopback);
  const notLoopback = ['http://128.0.0.1', 'http://localhost.example', 'http://10.0.0.1', 'http://[::2]'];
  for (const bad of [
    'https://app.example/',
    'http://app.example',
    '*',
    'https://app.example/path',
    ...notLoopback,
  ])
    assert.ok(
      problems(bad).some((p) => p.startsWith('CORS_ORIGINS')),
      bad,
    );
});
