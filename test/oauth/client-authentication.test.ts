import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ADMIN_TOKEN, basicAuth, registerClient } from '../helpers/oauth.ts';

const ENDPOINTS = ['/oauth/token', '/oauth/revoke', '/oauth/introspect'] as const;

/** A form post to one of the client-authenticating endpoints, from an address, with optional Basic. */
const post = (
  t: TestApp,
  path: string,
  form: Record<string, string>,
  opts: { ip?: string; authorization?: string } = {},
) =>
  t.request('POST', path, {
    body: new URLSearchParams(form).toString(),
    ip: opts.ip,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(opts.authorization ? { authorization: opts.authorization } : {}),
    },
  });

/** A request each endpoint answers without tokens once the client is authenticated (never 401/429). */
const formOf = (path: string): Record<string, string> =>
  path === '/oauth/token' ? { grant_type: 'refresh_token', refresh_token: 'x' } : { token: 'x' };

describe("a client's limits can't be spent by someone else", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({
      env: {
        ADMIN_TOKEN,
        RATE_LIMITS:
          'oauth_token_client=3/60,oauth_introspect_client=3/60,oauth_client_auth_failures_address=4/60',
      },
    });
  });
  after(() => t.close());

  test('requests that fail client authentication never count against the client', async () => {
    for (const path of ENDPOINTS) {
      const conf = await registerClient(t);
      const right = basicAuth({ id: conf.client_id, secret: conf.client_secret as string });
      const wrong = basicAuth({ id: conf.client_id, secret: 'guess' });
      // Attackers on many addresses name the client with wrong secrets, well past its limit of 3.
      for (let i = 0; i < 8; i++) {
        const res = await post(t, path, formOf(path), { ip: `203.0.113.${i}`, authorization: wrong });
        assert.equal(res.status, 401, path);
      }
      const res = await post(t, path, formOf(path), { ip: '198.51.100.1', authorization: right });
      assert.notEqual(res.status, 429, `${path}: the client itself is still served`);
      assert.equal(res.headers['x-ratelimit-remaining'], '2', `${path}: its own request was its first`);
    }
  });

  test('failed client authentications count per address: the 5th in a minute is 429, others go on', async () => {
    for (const path of ENDPOINTS) {
      const conf = await registerClient(t);
      const wrong = basicAuth({ id: conf.client_id, secret: 'guess' });
      const ip = `192.0.2.${ENDPOINTS.indexOf(path) + 10}`;
      for (let i = 0; i < 4; i++)
        assert.equal((await post(t, path, formOf(path), { ip, authorization: wrong })).status, 401);
      const over = await post(t, path, formOf(path), { ip, authorization: wrong });
      assert.equal(over.status, 429, path);
      assert.equal(over.body.error, 'too_many_requests');
      assert.ok(Number(over.headers['retry-after']) >= 1);
      const elsewhere = await post(t, path, formOf(path), { ip: '192.0.2.99', authorization: wrong });
      assert.equal(elsewhere.status, 401, `${path}: another address has its own count`);
    }
  });

  test("a public client's requests count per client and address", async () => {
    const pub = await registerClient(t, { token_endpoint_auth_method: 'none' });
    const refresh = (ip: string) =>
      post(
        t,
        '/oauth/token',
        { grant_type: 'refresh_token', client_id: pub.client_id, refresh_token: 'x' },
        { ip },
      );
    for (let i = 0; i < 3; i++) assert.equal((await refresh('198.51.100.20')).status, 400);
    assert.equal((await refresh('198.51.100.20')).status, 429);
    assert.equal((await refresh('198.51.100.21')).status, 400, 'its users elsewhere are still served');
  });
});

describe('a confidential client may send its secret either standard way (RFC 6749 §2.3.1)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN } });
  });
  after(() => t.close());

  test('Basic at every endpoint for a client registered for client_secret_post, and the form too', async () => {
    const conf = await registerClient(t, { token_endpoint_auth_method: 'client_secret_post' });
    const secret = conf.client_secret as string;
    for (const path of ENDPOINTS) {
      const basic = await post(t, path, formOf(path), {
        authorization: basicAuth({ id: conf.client_id, secret }),
      });
      assert.notEqual(basic.status, 401, `${path} with Basic`);
      const form = await post(t, path, { ...formOf(path), client_id: conf.client_id, client_secret: secret });
      assert.notEqual(form.status, 401, `${path} in the form`);
      const both = await post(
        t,
        path,
        { ...formOf(path), client_secret: secret },
        { authorization: basicAuth({ id: conf.client_id, secret }) },
      );
      assert.equal(both.status, 400, `${path}: both at once`);
      assert.equal(both.body.error, 'invalid_request');
    }
  });

  test('a public client still has no secret to send', async () => {
    const pub = await registerClient(t, { token_endpoint_auth_method: 'none' });
    const res = await post(t, '/oauth/token', formOf('/oauth/token'), {
      authorization: basicAuth({ id: pub.client_id, secret: 'anything' }),
    });
    assert.equal(res.status, 401);
    assert.equal(res.body.error, 'invalid_client');
  });

  test('discovery lists both methods at the three endpoints', async () => {
    const doc = (await t.request('GET', '/.well-known/openid-configuration')).body;
    for (const key of ['token', 'revocation', 'introspection'])
      for (const method of ['client_secret_basic', 'client_secret_post'])
        assert.ok(doc[`${key}_endpoint_auth_methods_supported`].includes(method), `${key}: ${method}`);
  });

  test('U+0000 (or a lone surrogate) in HTTP Basic credentials is invalid_client, never a 500', async () => {
    for (const path of ENDPOINTS)
      for (const id of ['a\u0000b', '%00', 'x%ED%A0%80'])
        for (const [user, pass] of [
          [id, 'secret'],
          ['client', id],
        ]) {
          const raw = `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
          const res = await post(t, path, formOf(path), { authorization: raw });
          assert.equal(res.status, 401, `${path} ${JSON.stringify([user, pass])}`);
          assert.equal(res.body.error, 'invalid_client');
        }
  });
});
