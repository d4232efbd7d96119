import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CallsignNetworkError, createClient, memoryStorage, type SessionStorage } from '@callsign/client';
import { unrevokedSessions } from '../helpers/app.ts';
import {
  asyncStorage,
  countingFetch,
  heard,
  type ListeningApp,
  listeningApp,
  signUpWith,
} from '../helpers/client-app.ts';

// Refresh that never signs a user out by itself: one refresh in flight per client, a refused access token
// retried once after one refresh, and only a refused refresh token ends the session.

/** Past an access token's 15 minutes on the server's clock. */
const ACCESS_TOKEN_LIFE_PLUS = 16 * 60;
const REFRESH_TOKEN_LIFE_PLUS = 31 * 24 * 3600;

describe('@callsign/client: refreshing the session', () => {
  let s: ListeningApp;
  before(async () => {
    s = await listeningApp();
  });
  after(() => s.t.close());

  async function signedInClient(storage: SessionStorage = memoryStorage()) {
    const counting = countingFetch();
    const client = createClient({ baseUrl: s.baseUrl, storage, fetch: counting.fetch });
    const session = await signUpWith(s.t, client);
    return { client, counting, session, storage };
  }

  test('50 calls at once with an expired access token: one POST /auth/refresh, and all 50 succeed', async () => {
    const { client, counting, session } = await signedInClient();
    const events = heard(client);
    s.t.clock.advance(ACCESS_TOKEN_LIFE_PLUS);
    const answers = await Promise.all(Array.from({ length: 50 }, () => client.users.me()));
    assert.ok(answers.every((user) => user.id === session.user.id));
    assert.equal(counting.count('POST /auth/refresh'), 1);
    assert.deepEqual(
      events.map((e) => e.type),
      ['TOKEN_REFRESHED'],
    );
    assert.notEqual((await client.auth.getSession())?.refreshToken, session.refreshToken);
    assert.equal(await unrevokedSessions(s.t, session.user.id), 1, 'the session lives on');
  });

  test('auth.refresh() refreshes at once, one request for calls made together; null when signed out', async () => {
    const { client, counting, session } = await signedInClient();
    const [first, second] = await Promise.all([client.auth.refresh(), client.auth.refresh()]);
    assert.equal(counting.count('POST /auth/refresh'), 1, 'a fresh access token refreshed on demand, once');
    assert.ok(first && first.refreshToken !== session.refreshToken);
    assert.equal(second?.refreshToken, first.refreshToken);
    assert.equal((await client.auth.getSession())?.accessToken, first.accessToken);
    await client.auth.signOut();
    assert.equal(await client.auth.refresh(), null);
  });

  test('an access token that expires within 60 s is refreshed before the calls, once for all of them', async () => {
    const storage = memoryStorage();
    const { client, counting, session } = await signedInClient(storage);
    // The same session in a client started later: its stored access token expires in 30 s.
    const key = `callsign:${s.baseUrl}:session`;
    await storage.setItem(key, JSON.stringify({ ...session, expiresAt: Date.now() + 30_000 }));
    client.close();
    const later = countingFetch();
    const restarted = createClient({ baseUrl: s.baseUrl, storage, fetch: later.fetch });
    await Promise.all(Array.from({ length: 20 }, () => restarted.sessions.list()));
    assert.equal(later.count('POST /auth/refresh'), 1);
    assert.equal(later.count('GET /sessions'), 20, 'no call went with the old token first');
    const token = await restarted.auth.getAccessToken();
    assert.equal(token, (await restarted.auth.getSession())?.accessToken);
    assert.equal(counting.count('POST /auth/refresh'), 0);
  });

  test('a refused access token is retried once, after one refresh; a second refusal is the caller’s', async () => {
    const { client, storage } = await signedInClient();
    client.close();
    // Every GET /users/me answers as for an expired token; everything else reaches the server.
    const expiredAlways = (input: string, init: RequestInit) =>
      new URL(input).pathname === '/users/me' && init.method === 'GET'
        ? Promise.resolve(
            Response.json(
              { success: false, error: { code: 'TOKEN_EXPIRED', message: 'expired', details: {} } },
              { status: 401 },
            ),
          )
        : fetch(input, init);
    const counted = countingFetch(expiredAlways);
    const retried = createClient({ baseUrl: s.baseUrl, storage, fetch: counted.fetch });
    await assert.rejects(retried.users.me(), { code: 'TOKEN_EXPIRED' });
    assert.equal(counted.count('GET /users/me'), 2, 'the call and one retry');
    assert.equal(counted.count('POST /auth/refresh'), 1);
    assert.ok(await retried.auth.getSession(), 'still signed in');
  });

  test('a refresh that gets no answer keeps the session', async () => {
    let failRefresh = true;
    const flaky = createClient({
      baseUrl: s.baseUrl,
      storage: memoryStorage(),
      fetch: (input, init) =>
        failRefresh && new URL(input).pathname === '/auth/refresh'
          ? Promise.reject(new TypeError('fetch failed'))
          : fetch(input, init),
    });
    await signUpWith(s.t, flaky);
    const events = heard(flaky);
    s.t.clock.advance(ACCESS_TOKEN_LIFE_PLUS);
    await assert.rejects(flaky.users.me(), CallsignNetworkError);
    assert.ok(await flaky.auth.getSession(), 'kept after no answer');
    failRefresh = false;
    assert.ok((await flaky.users.me()).id);
    assert.deepEqual(
      events.map((e) => e.type),
      ['TOKEN_REFRESHED'],
    );
  });

  test('a session ended elsewhere signs the client out: session_revoked; only then', async () => {
    const ended: string[] = [];
    const storage = memoryStorage();
    const { session } = await signedInClient(storage);
    const client = createClient({ baseUrl: s.baseUrl, storage, onSessionEnd: (r) => ended.push(r) });
    const events = heard(client);
    const other = createClient({ baseUrl: s.baseUrl, storage: memoryStorage() });
    await other.auth.signIn({ phone: session.user.phone, pin: '480715' });
    await other.sessions.revoke(await currentSessionId(client));
    await assert.rejects(client.users.me(), { code: 'INVALID_TOKEN' });
    assert.deepEqual(events, [{ type: 'SIGNED_OUT', session: null, reason: 'session_revoked' }]);
    assert.deepEqual(ended, ['session_revoked']);
    assert.equal(await storage.getItem(`callsign:${s.baseUrl}:session`), null);
  });

  test('a refresh token past its life signs the client out: refresh_failed', async () => {
    const { client } = await signedInClient();
    const events = heard(client);
    s.t.clock.advance(REFRESH_TOKEN_LIFE_PLUS);
    await assert.rejects(client.users.me(), { code: 'TOKEN_EXPIRED' });
    assert.deepEqual(events, [{ type: 'SIGNED_OUT', session: null, reason: 'refresh_failed' }]);
  });

  test('an async storage (as React Native’s) keeps and refreshes the session', async () => {
    const storage = asyncStorage();
    const { client, counting } = await signedInClient(storage);
    s.t.clock.advance(ACCESS_TOKEN_LIFE_PLUS);
    await Promise.all(Array.from({ length: 10 }, () => client.users.me()));
    assert.equal(counting.count('POST /auth/refresh'), 1);
    const stored = JSON.parse(String(storage.items.get(`callsign:${s.baseUrl}:session`)));
    assert.equal(stored.refreshToken, (await client.auth.getSession())?.refreshToken);
  });

  async function currentSessionId(client: ReturnType<typeof createClient>) {
    const listed = await client.sessions.list();
    const current = listed.sessions.find((x) => x.current);
    assert.ok(current);
    return current.id;
  }
});
