import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, events, openSessions, signUp, type TestApp } from '../helpers/app.ts';
import { ADMIN_TOKEN, adminRequest } from '../helpers/oauth.ts';

describe('GET /sessions, DELETE /sessions/:id', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN } });
  });
  after(() => t.close());

  const signin = (phone: string, pin: string, device: unknown, ip: string) =>
    t.request('POST', '/auth/signin', { body: { phone, pin, device }, ip });

  test('lists active sessions with the spec fields; exactly one is current', async () => {
    const s = await signUp(t, { device: { name: 'Phone', platform: 'ios' } });
    const laptop = await signin(
      s.phone,
      s.pin,
      { name: 'Laptop', platform: 'desktop' },
      '2001:db8:85a3:8d3::7',
    );
    const res = await t.request('GET', '/sessions', { token: laptop.body.data.access_token });
    assert.equal(res.status, 200);
    const { sessions, total } = res.body.data;
    assert.equal(total, 2);
    assert.equal(sessions.length, 2);
    for (const x of sessions) {
      assert.deepEqual(Object.keys(x).sort(), [
        'created_at',
        'current',
        'device_name',
        'id',
        'ip_address',
        'last_used_at',
        'platform',
      ]);
      assert.equal(typeof x.current, 'boolean');
    }
    assert.equal(sessions.filter((x: { current: boolean }) => x.current).length, 1);
    const current = sessions.find((x: { current: boolean }) => x.current);
    assert.equal(current.device_name, 'Laptop');
    assert.equal(current.platform, 'desktop');
    assert.equal(current.ip_address, '2001:db8:85a3:*', 'D18: IPv6 keeps 48 bits');
    const phone = sessions.find((x: { current: boolean }) => !x.current);
    assert.equal(phone.platform, 'ios');
    assert.match(phone.ip_address, /^198\.1[89]\.\d{1,3}\.\*$/);
  });

  test('revoking a session from another device kills its access and refresh tokens at once', async () => {
    const s = await signUp(t);
    const other = await signin(s.phone, s.pin, { name: 'Tablet', platform: 'android' }, '203.0.113.5');
    const list = await t.request('GET', '/sessions', { token: s.access_token });
    const target = list.body.data.sessions.find((x: { device_name: string }) => x.device_name === 'Tablet');
    const res = await t.request('DELETE', `/sessions/${target.id}`, { token: s.access_token });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, { revoked: true });
    const dead = await t.request('GET', '/users/me', { token: other.body.data.access_token });
    assert.equal(dead.status, 401);
    assert.equal(dead.body.error.code, 'INVALID_TOKEN');
    const refresh = await t.request('POST', '/auth/refresh', {
      body: { refresh_token: other.body.data.refresh_token },
    });
    assert.equal(refresh.body.error.code, 'INVALID_REFRESH_TOKEN');
    assert.equal(
      (await t.request('GET', '/users/me', { token: s.access_token })).status,
      200,
      'the caller lives on',
    );
    const ev = (await events(t, 'session.revoked')).filter((e) => e.data.session_id === target.id);
    assert.deepEqual(
      ev.map((e) => e.data),
      [{ user_id: s.user.id, session_id: target.id, reason: 'user_revoked' }],
    );
    const after = await t.request('GET', '/sessions', { token: s.access_token });
    assert.equal(after.body.data.total, 1);
  });

  test("another user's session, an unknown id, a malformed id and a revoked one are NOT_FOUND", async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const bSession = (await t.request('GET', '/sessions', { token: b.access_token })).body.data.sessions[0]
      .id;
    for (const id of [bSession, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await t.request('DELETE', `/sessions/${id}`, { token: a.access_token });
      assert.equal(res.status, 404, id);
      assert.equal(res.body.error.code, 'NOT_FOUND', id);
    }
    assert.equal(
      (await t.request('GET', '/users/me', { token: b.access_token })).status,
      200,
      "b's session untouched",
    );
    const aSession = (await t.request('GET', '/sessions', { token: a.access_token })).body.data.sessions[0]
      .id;
    const self = await t.request('DELETE', `/sessions/${aSession}`, { token: a.access_token });
    assert.equal(self.status, 200, 'revoking the current session is a logout');
    assert.equal((await t.request('GET', '/sessions', { token: a.access_token })).status, 401);
  });

  test('a session whose refresh token ran out (30 days unused) is no longer listed or revocable', async () => {
    const s = await signUp(t);
    const idle = JSON.parse(Buffer.from(s.access_token.split('.')[1], 'base64url').toString()).sid;
    t.clock.advance(30 * 86400 - 1);
    const fresh = await signin(s.phone, s.pin, { name: 'Laptop', platform: 'desktop' }, '203.0.113.9');
    const before = await t.request('GET', '/sessions', { token: fresh.body.data.access_token });
    assert.equal(before.body.data.total, 2, 'a second short of 30 days it still counts');
    t.clock.advance(2);
    const token = (
      await t.request('POST', '/auth/refresh', { body: { refresh_token: fresh.body.data.refresh_token } })
    ).body.data.access_token;
    const list = await t.request('GET', '/sessions', { token });
    assert.deepEqual(
      list.body.data.sessions.map((x: { device_name: string }) => x.device_name),
      ['Laptop'],
    );
    const gone = await t.request('DELETE', `/sessions/${idle}`, { token });
    assert.equal(gone.status, 404);
    assert.equal(gone.body.error.code, 'NOT_FOUND');
  });

  test('last_used_at moves with use (at minute granularity)', async () => {
    const s = await signUp(t);
    t.clock.advance(120);
    const r = await t.request('POST', '/auth/refresh', { body: { refresh_token: s.refresh_token } });
    const list = await t.request('GET', '/sessions', { token: r.body.data.access_token });
    const session = list.body.data.sessions[0];
    assert.equal(Date.parse(session.last_used_at), t.clock.now().getTime());
    assert.ok(Date.parse(session.created_at) < Date.parse(session.last_used_at));
  });

  test('a page at a time (limit 1-100, default 100; offset), the most recently used first; total counts all', async () => {
    const s = await signUp(t);
    const opened = await openSessions(t, s.user.id, 102, 1);
    const newestFirst = [...opened].reverse();
    const list = (query: string) => t.request('GET', `/sessions${query}`, { token: s.access_token });
    const ids = (res: { body: { data: { sessions: { id: string }[] } } }) =>
      res.body.data.sessions.map((x) => x.id);

    const first = await list('');
    assert.equal(first.status, 200);
    assert.equal(first.body.data.total, 103, 'the sign-up session and 102 more');
    assert.deepEqual(ids(first), newestFirst.slice(0, 100), 'by default the 100 most recently used');
    const two = await list('?limit=2&offset=1');
    assert.deepEqual(ids(two), newestFirst.slice(1, 3));
    assert.equal(two.body.data.total, 103);
    const rest = await list('?offset=100');
    assert.equal(ids(rest).length, 3);
    assert.equal(rest.body.data.sessions.at(-1).current, true, 'the sign-up session, used longest ago');
    assert.deepEqual((await list('?offset=103')).body.data, { sessions: [], total: 103 });

    // Pages list every session once, though page boundaries fall among sessions used at the same instant:
    // the id breaks ties of last_used_at.
    t.clock.advance(1);
    const tied = await openSessions(t, s.user.id, 7);
    const seen: string[] = [];
    for (let offset = 0; offset < 7; offset += 2) seen.push(...ids(await list(`?limit=2&offset=${offset}`)));
    assert.deepEqual(seen.slice(0, 7).sort(), [...tied].sort());

    for (const [query, field] of [
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=abc', 'limit'],
      ['?limit=1e1', 'limit'],
      ['?limit=', 'limit'],
      ['?offset=-1', 'offset'],
      ['?offset=0x10', 'offset'],
      ['?offset=1&offset=2', 'offset'],
    ]) {
      const res = await list(query);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.error.code, 'INVALID_REQUEST', query);
      assert.equal(res.body.error.details.field, field, query);
    }

    // The operator's view of the account: the 100 most recently used, and how many there are.
    const detail = await adminRequest(t, 'GET', `/users/${s.user.id}`);
    assert.equal(detail.body.sessions.length, 100);
    assert.equal(detail.body.sessions_total, 110);
  });
});
