import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeProtectedHeader } from 'jose';
import type { Device } from '../../src/domain/accounts/account-inputs.ts';
import { CLIENT_CACHE_SECONDS } from '../../src/domain/clients/clients.ts';
import {
  NEXT_KEY_PUBLISHED_SECONDS,
  RETIRED_KEY_PUBLISHED_SECONDS,
} from '../../src/domain/sessions/key-ring.ts';
import { SIGNING_ALGS } from '../../src/domain/sessions/signing-algorithms.ts';
import { createTestApp, events, signUp, type TestApp } from '../helpers/app.ts';
import {
  ADMIN_TOKEN,
  adminRequest,
  authorizationParams,
  authorizeUrl,
  pkce,
  REDIRECT,
} from '../helpers/oauth.ts';

const client = {
  client_name: 'Example App',
  redirect_uris: ['https://app.example/callback', 'http://localhost:8080/cb'],
  scope: 'openid profile phone',
  token_endpoint_auth_method: 'client_secret_basic',
};

describe('admin API /admin/v1', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN } });
  });
  after(() => t.close());

  test('the admin token is required and compared exactly', async () => {
    for (const token of [undefined, 'wrong', `${ADMIN_TOKEN}x`]) {
      const res = await t.request('GET', '/admin/v1/clients', { token });
      assert.equal(res.status, 401);
      assert.equal(res.body.error, 'invalid_token');
    }
  });

  test('without ADMIN_TOKEN the admin API is off', async () => {
    const off = await createTestApp();
    try {
      assert.equal((await off.request('GET', '/admin/v1/clients', { token: ADMIN_TOKEN })).status, 404);
    } finally {
      await off.close();
    }
  });

  test('a confidential client: created with its secret once; listed without it; stored hashed', async () => {
    const res = await adminRequest(t, 'POST', '/clients', { ...client, first_party: true });
    assert.equal(res.status, 201);
    const c = res.body;
    assert.equal(typeof c.client_id, 'string');
    assert.equal(typeof c.client_secret, 'string');
    assert.ok(c.client_secret.length >= 43);
    assert.equal(res.headers['cache-control'], 'no-store', 'P66: a secret shown once is kept by no cache');
    assert.deepEqual(c.redirect_uris, client.redirect_uris);
    assert.deepEqual(c.grant_types, ['authorization_code', 'refresh_token']);
    assert.equal(c.first_party, true);
    assert.ok(!Number.isNaN(Date.parse(c.created_at)));
    const list = await adminRequest(t, 'GET', '/clients');
    const listed = list.body.data.find((x: { client_id: string }) => x.client_id === c.client_id);
    assert.equal(listed.client_secret, undefined);
    assert.equal((await adminRequest(t, 'GET', `/clients/${c.client_id}`)).body.client_name, 'Example App');
    const rows = await t.c.db.query<{ client_secret_hash: string }>(
      'SELECT client_secret_hash FROM clients WHERE client_id = $1',
      [c.client_id],
    );
    assert.notEqual(rows[0].client_secret_hash, c.client_secret);
    const stored = await t.c.clients.getClient(c.client_id);
    assert.ok(t.c.clients.secretMatches(stored, c.client_secret));
    assert.ok(!t.c.clients.secretMatches(stored, `${c.client_secret}x`));
  });

  test('a public client (PKCE only) has no secret', async () => {
    const res = await adminRequest(t, 'POST', '/clients', { ...client, token_endpoint_auth_method: 'none' });
    assert.equal(res.status, 201);
    assert.equal(res.body.client_secret, undefined);
  });

  test('registration is validated: redirect URIs, scopes, grant types, auth method, name', async () => {
    const bad: Array<Record<string, unknown>> = [
      { redirect_uris: ['http://app.example/cb'] },
      { redirect_uris: ['https://app.example/cb#frag'] },
      { redirect_uris: ['/relative'] },
      { redirect_uris: ['myapp:/callback'] }, // P24: a private-use scheme needs a dot (RFC 8252 §7.1)
      { redirect_uris: [] },
      { redirect_uris: 'https://app.example/cb' },
      { scope: 'openid admin' },
      { grant_types: ['password'] },
      { grant_types: ['refresh_token'] },
      { token_endpoint_auth_method: 'private_key_jwt' },
      { client_name: '' },
      { first_party: 'yes' },
    ];
    for (const patch of bad) {
      const res = await adminRequest(t, 'POST', '/clients', { ...client, ...patch });
      assert.equal(res.status, 400, JSON.stringify(patch));
      assert.equal(res.body.error, 'invalid_request', JSON.stringify(patch));
      assert.equal(typeof res.body.error_description, 'string');
    }
    const native = await adminRequest(t, 'POST', '/clients', {
      ...client,
      redirect_uris: ['com.example.app:/oauth2redirect'],
    });
    assert.equal(native.status, 201, 'RFC 8252 private-use scheme');
  });

  test('deleting a client ends its sessions (session.revoked, reason admin); then it is not found', async () => {
    const c = (await adminRequest(t, 'POST', '/clients', client)).body;
    const s = await signUp(t);
    const opened = await t.c.db.transaction((tx) =>
      t.c.sessions.open(tx, {
        userId: s.user.id,
        clientId: c.client_id,
        device: { name: null, platform: 'web' } as Device,
        ipAddress: null,
        scope: 'openid',
      }),
    );
    assert.equal((await adminRequest(t, 'DELETE', `/clients/${c.client_id}`)).status, 204);
    const ev = (await events(t, 'session.revoked')).filter((e) => e.data.session_id === opened.session.id);
    assert.deepEqual(
      ev.map((e) => e.data.reason),
      ['admin'],
    );
    assert.equal((await adminRequest(t, 'GET', `/clients/${c.client_id}`)).status, 404);
    assert.equal((await adminRequest(t, 'DELETE', `/clients/${c.client_id}`)).body.error, 'not_found');
  });

  test('a client change applies at once in the process that made it, within 5 s in the others', async () => {
    const c = (
      await adminRequest(t, 'POST', '/clients', {
        ...client,
        redirect_uris: [REDIRECT, 'https://app.example/callback'],
        token_endpoint_auth_method: 'none',
      })
    ).body;
    const request = authorizeUrl(authorizationParams(c.client_id, pkce().challenge));
    const other = await createTestApp({ shareWith: t, env: { ADMIN_TOKEN } });
    try {
      // Both processes read the client: the sign-in page.
      for (const app of [t, other]) assert.equal((await app.request('GET', request)).status, 200);

      await adminRequest(t, 'PATCH', `/clients/${c.client_id}`, {
        redirect_uris: ['https://app.example/callback'],
      });
      assert.equal((await t.request('GET', request)).status, 400, 'at once where it was changed');
      t.clock.advance(CLIENT_CACHE_SECONDS);
      assert.equal((await other.request('GET', request)).status, 400, 'after 5 s in the other');

      const kept = authorizeUrl(
        authorizationParams(c.client_id, pkce().challenge, { redirect_uri: 'https://app.example/callback' }),
      );
      for (const app of [t, other]) assert.equal((await app.request('GET', kept)).status, 200);
      await adminRequest(t, 'DELETE', `/clients/${c.client_id}`);
      assert.equal((await t.request('GET', kept)).status, 400, 'deleted: at once where it was deleted');
      t.clock.advance(CLIENT_CACHE_SECONDS);
      assert.equal((await other.request('GET', kept)).status, 400, 'after 5 s in the other');
    } finally {
      await other.close();
    }
  });

  test('API keys: shown once, listed by prefix, stored hashed, usable until revoked', async () => {
    const res = await adminRequest(t, 'POST', '/api-keys', { name: 'backend' });
    assert.equal(res.status, 201);
    const { id, key, prefix, name } = res.body;
    assert.equal(name, 'backend');
    assert.ok(key.startsWith(prefix));
    const listed = (await adminRequest(t, 'GET', '/api-keys')).body.data.find(
      (k: { id: string }) => k.id === id,
    );
    assert.equal(listed.key, undefined);
    assert.equal(listed.prefix, prefix);
    assert.equal((await t.c.db.query('SELECT 1 FROM api_keys WHERE key_hash = $1', [key])).length, 0);
    assert.equal((await t.c.clients.authenticateApiKey(key))?.id, id);
    assert.ok(
      (await adminRequest(t, 'GET', '/api-keys')).body.data.find((k: { id: string }) => k.id === id)
        .last_used_at,
    );
    assert.equal((await adminRequest(t, 'DELETE', `/api-keys/${id}`)).status, 204);
    assert.equal(await t.c.clients.authenticateApiKey(key), undefined);
    assert.equal((await adminRequest(t, 'DELETE', `/api-keys/${id}`)).status, 404);
    assert.equal((await adminRequest(t, 'DELETE', `/api-keys/${'-'.repeat(36)}`)).status, 404, 'no uuid');
    assert.equal((await adminRequest(t, 'POST', '/api-keys', {})).body.error, 'invalid_request');
  });

  const kidOf = (token: string) => decodeProtectedHeader(token).kid;
  /** The published keys of one algorithm (RS256, that of access tokens unless ACCESS_TOKEN_ALG says). */
  const publishedKids = async (app: TestApp, alg = 'RS256') =>
    (await app.request('GET', '/.well-known/jwks.json')).body.keys
      .filter((k: { alg: string }) => k.alg === alg)
      .map((k: { kid: string }) => k.kid);

  test('key rotation: the new key is published at once and signs 7 minutes on; the old one stays in JWKS until its tokens expired', async () => {
    // An instance on the same database, started before the rotation.
    const other = await createTestApp({ shareWith: t, env: { ADMIN_TOKEN } });
    const before = await signUp(t);
    const oldKid = kidOf(before.access_token);
    const rotated = await adminRequest(t, 'POST', '/keys/rotate');
    try {
      assert.equal(rotated.status, 200);
      assert.notEqual(rotated.body.kid, oldKid);
      // Every algorithm's key is rotated, each published at once.
      assert.deepEqual(rotated.body.keys.map((k: { alg: string }) => k.alg).sort(), [...SIGNING_ALGS].sort());
      for (const { alg, kid } of rotated.body.keys)
        assert.ok((await publishedKids(t, alg)).includes(kid), alg);
      const signsFrom = t.clock.now().getTime() + NEXT_KEY_PUBLISHED_SECONDS * 1000;
      assert.equal(rotated.body.signs_from, new Date(signsFrom).toISOString());
      assert.equal(NEXT_KEY_PUBLISHED_SECONDS, 420, 'the JWKS max-age (300 s) and two reloads (60 s)');
      assert.deepEqual(
        (await publishedKids(t)).sort(),
        [oldKid, rotated.body.kid].sort(),
        'published before it signs',
      );
      assert.equal(kidOf((await signUp(t)).access_token), oldKid, 'the old key signs meanwhile');
      t.clock.advance(NEXT_KEY_PUBLISHED_SECONDS - 1);
      assert.equal(kidOf((await signUp(t)).access_token), oldKid, 'until signs_from');
      t.clock.advance(1);
      const after = await signUp(t);
      assert.equal(kidOf(after.access_token), rotated.body.kid, 'then the new key signs');
      assert.equal(
        (await t.request('GET', '/users/me', { token: before.access_token })).status,
        200,
        'old tokens still verify',
      );

      // P25: the other instance learns of the new key when it meets its kid (it reloads every 60 s too), and
      // then signs with it as well.
      assert.equal((await other.request('GET', '/users/me', { token: after.access_token })).status, 200);
      assert.equal(kidOf((await signUp(other)).access_token), rotated.body.kid);
    } finally {
      await other.close();
    }

    // Published 1 h 2 min from when it stopped signing (signs_from of the key after it), not from the rotation.
    // Each rotation reloads the keys, so the JWKS shows what is published at that moment.
    t.clock.advance(RETIRED_KEY_PUBLISHED_SECONDS - 1);
    const second = await adminRequest(t, 'POST', '/keys/rotate');
    assert.ok((await publishedKids(t)).includes(oldKid), 'still published a second before');
    t.clock.advance(1);
    const third = await adminRequest(t, 'POST', '/keys/rotate');
    const later = await publishedKids(t);
    assert.ok(!later.includes(oldKid), 'gone once every token it signed has expired');
    assert.deepEqual(
      later.sort(),
      [rotated.body.kid, second.body.kid, third.body.kid].sort(),
      'the key that signs now, and the two rotated in since',
    );
  });

  test('an immediate rotation signs at once; the rotation takes no other field', async () => {
    const rotated = await adminRequest(t, 'POST', '/keys/rotate', { immediate: true });
    assert.equal(rotated.status, 200);
    assert.equal(rotated.body.signs_from, t.clock.now().toISOString());
    assert.equal(kidOf((await signUp(t)).access_token), rotated.body.kid);
    assert.ok((await publishedKids(t)).includes(rotated.body.kid));
    for (const body of [{ immediate: 'yes' }, { at: 'now' }])
      assert.equal((await adminRequest(t, 'POST', '/keys/rotate', body)).status, 400, JSON.stringify(body));
  });
});
