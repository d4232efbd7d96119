import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { mergePatch } from '../../src/domain/profiles/merge-patch.ts';
import { createTestApp, events, type SignedUp, signUp, type TestApp } from '../helpers/app.ts';
import { ADMIN_TOKEN, accessTokenFor, registerClient } from '../helpers/oauth.ts';

describe('/api/v1 user management', () => {
  let t: TestApp;
  let clientId: string;
  let apiKey: string;
  before(async () => {
    t = await createTestApp({
      env: { ADMIN_TOKEN, RATE_LIMITS: 'signin_phone=1000/900,signin_address=1000/900' },
    });
    clientId = (
      await registerClient(t, {
        token_endpoint_auth_method: 'none',
        scope: 'openid profile profile:write phone email kyc account:delete',
      })
    ).client_id;
    apiKey = (await t.request('POST', '/admin/v1/api-keys', { token: ADMIN_TOKEN, body: { name: 'server' } }))
      .body.key;
  });
  after(() => t.close());

  const tokenFor = (user: SignedUp, scope: string) => accessTokenFor(t, clientId, user, scope);
  const api = (method: string, url: string, token: string, body?: unknown) =>
    t.request(method, `/api/v1${url}`, { token, body });

  test('GET /me: every field its scopes allow, null when unset; fields of missing scopes left out', async () => {
    const u = await signUp(t, { name: 'Ada' });
    const full = await api('GET', '/users/me', await tokenFor(u, 'openid profile phone email kyc'));
    assert.equal(full.status, 200);
    assert.equal(full.headers['cache-control'], 'no-store', 'P66');
    assert.deepEqual(Object.keys(full.body).sort(), [
      'avatar_url',
      'created_at',
      'email',
      'id',
      'kyc_country',
      'kyc_status',
      'name',
      'phone',
    ]);
    assert.equal(full.body.phone, u.phone);
    assert.equal(full.body.email, null);
    assert.equal(full.body.kyc_status, 'NONE', 'D3: uppercase on the OAuth surface');
    const narrow = await api('GET', '/users/me', await tokenFor(u, 'openid'));
    assert.deepEqual(Object.keys(narrow.body).sort(), ['created_at', 'id']);
    const phoneOnly = await api('GET', '/users/me', await tokenFor(u, 'openid phone'));
    assert.deepEqual(Object.keys(phoneOnly.body).sort(), ['created_at', 'id', 'phone']);
  });

  test('PATCH /me: name and email; answers id, phone, name, email, updated_at; writes user.updated', async () => {
    const u = await signUp(t);
    const token = await tokenFor(u, 'openid profile profile:write phone email');
    const res = await api('PATCH', '/users/me', token, { name: 'Grace Hopper', email: 'grace@example.com' });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['email', 'id', 'name', 'phone', 'updated_at']);
    assert.equal(res.body.email, 'grace@example.com');
    const ev = (await events(t, 'user.updated')).filter(
      (e) => (e.data.user as { id: string }).id === u.user.id,
    );
    assert.deepEqual(ev.at(-1)?.data.changed_fields, ['name', 'email']);
  });

  test('PATCH /me errors: invalid_email 400, name bounds 400, scopes 403, no token 401', async () => {
    const u = await signUp(t);
    const token = await tokenFor(u, 'openid profile profile:write email');
    for (const email of ['nope', 'a@b', '@example.com', `${'x'.repeat(250)}@example.com`, 42]) {
      const res = await api('PATCH', '/users/me', token, { email });
      assert.equal(res.status, 400, String(email));
      assert.equal(res.body.error, 'invalid_email');
    }
    for (const name of ['', 'x'.repeat(101), null])
      assert.equal((await api('PATCH', '/users/me', token, { name })).body.error, 'invalid_request');
    const noEmailScope = await tokenFor(u, 'openid profile profile:write');
    const res = await api('PATCH', '/users/me', noEmailScope, { email: 'a@example.com' });
    assert.equal(res.status, 403);
    assert.equal(res.body.error, 'insufficient_scope');
    assert.equal(
      (await api('PATCH', '/users/me', await tokenFor(u, 'openid'), { name: 'x' })).status,
      403,
      'PATCH needs profile:write',
    );
    const readOnly = await tokenFor(u, 'openid profile');
    for (const [method, path, body] of [
      ['PATCH', '/users/me', { name: 'x' }],
      ['PATCH', '/users/me/metadata', { a: 1 }],
      ['DELETE', '/users/me/avatar', undefined],
    ] as const) {
      const refused = await api(method, path, readOnly, body);
      assert.equal(refused.status, 403, `${method} ${path}: profile only reads`);
      assert.equal(refused.body.error, 'insufficient_scope');
    }
    const none = await t.request('GET', '/api/v1/users/me');
    assert.equal(none.status, 401);
    assert.equal(none.body.error, 'invalid_token');
    assert.match(String(none.headers['www-authenticate']), /^Bearer/);
  });

  test('email is unique across users (email_taken 409); two concurrent PATCHes of one address: exactly one wins', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const [ta, tb] = await Promise.all([
      tokenFor(a, 'openid profile:write email'),
      tokenFor(b, 'openid profile:write email'),
    ]);
    const email = `race-${Date.now()}@example.com`;
    const answers = await Promise.all([
      api('PATCH', '/users/me', ta, { email }),
      api('PATCH', '/users/me', tb, { email: email.toUpperCase() }),
    ]);
    assert.deepEqual(answers.map((r) => r.status).sort(), [200, 409]);
    assert.equal(answers.find((r) => r.status === 409)?.body.error, 'email_taken');
  });

  test('metadata: JSON Merge Patch, null deletes, answers {metadata}; 10 KB and depth 5', async () => {
    const u = await signUp(t);
    const token = await tokenFor(u, 'openid profile profile:write');
    const first = await api('PATCH', '/users/me/metadata', token, { a: 'b', c: { d: 'e', f: 'g' } });
    assert.deepEqual(first.body, { metadata: { a: 'b', c: { d: 'e', f: 'g' } } });
    const second = await api('PATCH', '/users/me/metadata', token, { a: 'z', c: { f: null } });
    assert.deepEqual(second.body.metadata, { a: 'z', c: { d: 'e' } });
    const big = await api('PATCH', '/users/me/metadata', token, { blob: 'x'.repeat(10 * 1024) });
    assert.equal(big.status, 400);
    assert.equal(big.body.error, 'invalid_request');
    const deep = await api('PATCH', '/users/me/metadata', token, { a: { b: { c: { d: { e: { f: 1 } } } } } });
    assert.equal(deep.status, 400);
    assert.deepEqual(
      (await api('PATCH', '/users/me/metadata', token, {})).body.metadata,
      { a: 'z', c: { d: 'e' } },
      'nothing stored for the refused ones',
    );
    assert.equal((await api('PATCH', '/users/me/metadata', token, [1])).body.error, 'invalid_request');
    const viaMe = await api('PATCH', '/users/me', token, { metadata: { a: null } });
    assert.equal(viaMe.status, 200);
    assert.deepEqual((await api('PATCH', '/users/me/metadata', token, {})).body.metadata, { c: { d: 'e' } });
  });

  test("RFC 7396 appendix A's examples", () => {
    const cases: Array<[unknown, unknown, unknown]> = [
      [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
      [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
      [{ a: 'b' }, { a: null }, {}],
      [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
      [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
      [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
      [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
      [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
      [
        ['a', 'b'],
        ['c', 'd'],
        ['c', 'd'],
      ],
      [{ a: 'b' }, ['c'], ['c']],
      [{ a: 'foo' }, null, null],
      [{ a: 'foo' }, 'bar', 'bar'],
      [{ e: null }, { a: 1 }, { e: null, a: 1 }],
      [[1, 2], { a: 'b', c: null }, { a: 'b' }],
      [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
    ];
    for (const [target, patch, result] of cases)
      assert.deepEqual(mergePatch(target, patch), result, JSON.stringify(patch));
  });

  test('DELETE /me: {confirm: true} deletes, 204; needs account:delete and the PIN within 5 minutes', async () => {
    const u = await signUp(t);
    for (const scope of ['openid phone', 'openid profile', 'openid profile profile:write']) {
      const refused = await api('DELETE', '/users/me', await tokenFor(u, scope), { confirm: true });
      assert.equal(refused.status, 403, scope);
      assert.equal(refused.body.error, 'insufficient_scope');
    }
    const token = await tokenFor(u, 'openid account:delete');
    assert.equal((await api('DELETE', '/users/me', token, { confirm: false })).body.error, 'invalid_request');
    const res = await api('DELETE', '/users/me', token, { confirm: true });
    assert.equal(res.status, 204);
    assert.equal((await api('GET', '/users/me', token)).status, 401);
    assert.ok((await events(t, 'user.deleted')).some((e) => e.data.user_id === u.user.id));
  });

  test('server to server: GET /users/:id and ?phone= with an API key; user_not_found; pagination', async () => {
    const u = await signUp(t, { name: 'Server Seen' });
    const one = await api('GET', `/users/${u.user.id}`, apiKey);
    assert.equal(one.status, 200);
    assert.deepEqual(Object.keys(one.body).sort(), [
      'created_at',
      'external_id',
      'handle',
      'id',
      'kyc_country',
      'kyc_status',
      'metadata',
      'name',
      'phone',
    ]);
    assert.deepEqual([one.body.handle, one.body.metadata], [u.handle, {}]);
    assert.equal(one.body.kyc_status, 'NONE');
    const missing = await api('GET', '/users/00000000-0000-4000-8000-000000000000', apiKey);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, 'user_not_found');
    // 36 characters of the uuid alphabet that are no uuid never reach the uuid column (a 500 before).
    const notUuid = await api('GET', `/users/${'-'.repeat(36)}`, apiKey);
    assert.equal(notUuid.status, 404);
    assert.equal(notUuid.body.error, 'user_not_found');
    // P103: an id over the router's old 100 characters is an unknown user too, not Fastify's 414; a path that
    // does not decode is invalid_request, in this surface's format.
    const long = await api('GET', `/users/${'a'.repeat(300)}`, apiKey);
    assert.deepEqual([long.status, long.body.error], [404, 'user_not_found']);
    const broken = await api('GET', '/users/%E0%A4%A', apiKey);
    assert.deepEqual([broken.status, broken.body.error], [400, 'invalid_request']);
    const list = await api('GET', `/users?phone=${encodeURIComponent(u.phone)}`, apiKey);
    assert.deepEqual(list.body, {
      data: [
        {
          id: u.user.id,
          phone: u.phone,
          handle: u.handle,
          name: 'Server Seen',
          kyc_status: 'NONE',
          external_id: null,
        },
      ],
      has_more: false,
    });
    const after = await api(
      'GET',
      `/users?phone=${encodeURIComponent(u.phone)}&starting_after=${u.user.id}`,
      apiKey,
    );
    assert.deepEqual(after.body, { data: [], has_more: false });
    for (const q of [
      'phone=123',
      `phone=${encodeURIComponent(u.phone)}&limit=0`,
      `phone=${encodeURIComponent(u.phone)}&limit=101`,
      `phone=${encodeURIComponent(u.phone)}&starting_after=x`,
      `phone=${encodeURIComponent(u.phone)}&starting_after=${'-'.repeat(36)}`,
      // Only plain decimal digits are a limit (Number() would take these as 16, 10 and 5).
      `phone=${encodeURIComponent(u.phone)}&limit=0x10`,
      `phone=${encodeURIComponent(u.phone)}&limit=1e1`,
      `phone=${encodeURIComponent(u.phone)}&limit=%205`,
    ]) {
      assert.equal((await api('GET', `/users?${q}`, apiKey)).body.error, 'invalid_request', q);
    }
  });

  test('a user token is refused on server paths (403) and an API key on /me paths (401)', async () => {
    const u = await signUp(t);
    const token = await tokenFor(u, 'openid profile');
    const userOnServer = await api('GET', `/users/${u.user.id}`, token);
    assert.equal(userOnServer.status, 403);
    assert.equal(userOnServer.body.error, 'insufficient_scope');
    const keyOnMe = await api('GET', '/users/me', apiKey);
    assert.equal(keyOnMe.status, 401);
    assert.equal(keyOnMe.body.error, 'invalid_token');
    const revokedKey = (
      await t.request('POST', '/admin/v1/api-keys', { token: ADMIN_TOKEN, body: { name: 'old' } })
    ).body;
    await t.request('DELETE', `/admin/v1/api-keys/${revokedKey.id}`, { token: ADMIN_TOKEN });
    assert.equal((await api('GET', `/users/${u.user.id}`, revokedKey.key)).status, 401);
  });
});
