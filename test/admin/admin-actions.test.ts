import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CONSOLE_CALL_HEADER } from '../../src/http/console/console-context.ts';
import { createTestApp, signUp, type TestApp } from '../helpers/app.ts';
import { whileRefusing } from '../helpers/database.ts';
import { ADMIN_TOKEN, adminRequest } from '../helpers/oauth.ts';

describe('the operators’ trail (GET /admin/v1/actions)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN } });
  });
  after(() => t.close());

  const actions = async (query = '') => {
    const res = await adminRequest(t, 'GET', `/actions${query}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data as Record<string, unknown>[];
  };
  const asAdmin = (method: string, url: string, o: { body?: unknown; ip?: string; id?: string } = {}) =>
    t.request(method, `/admin/v1${url}`, {
      body: o.body,
      ip: o.ip,
      token: ADMIN_TOKEN,
      headers: o.id ? { 'x-request-id': o.id } : {},
    });

  test('every change, search of accounts and look at a person is kept, with who, where, when, what and how it ended; other lists and refusals are not', async () => {
    const before = (await actions())[0]?.id ?? 0;
    t.clock.advance(60);
    const at = t.clock.now().toISOString();
    const created = await asAdmin('POST', '/clients', {
      body: { client_name: 'Trail shop', redirect_uris: ['https://shop.example/cb'] },
      ip: '203.0.113.9',
      id: 'trail-create-1',
    });
    assert.equal(created.status, 201);
    const user = await signUp(t);
    assert.equal((await asAdmin('GET', `/users/${user.user.id}`, { ip: '203.0.113.9' })).status, 200);
    // Kept with what was searched for: a search of accounts shows people.
    assert.equal(
      (await asAdmin('GET', '/users?q=Ada&kyc_status=none', { id: 'trail-search-3' })).status,
      200,
    );
    // Not kept: another list, a route that does not exist, a wrong token.
    assert.equal((await asAdmin('GET', '/clients')).status, 200);
    assert.equal((await asAdmin('GET', '/nowhere')).status, 404);
    const refused = await t.request('DELETE', `/admin/v1/clients/${created.body.client_id}`, {
      token: 'not-the-admin-token-000000000',
    });
    assert.equal(refused.status, 401);
    // Kept although refused by the rule: an operator tried it.
    assert.equal((await asAdmin('DELETE', '/clients/no-such-client', { id: 'trail-delete-2' })).status, 404);

    const trail = (await actions()).filter((a) => (a.id as number) > (before as number));
    assert.deepEqual(
      trail.map(({ id: _, address, ...a }) => a),
      [
        {
          at,
          source: 'api',
          request_id: 'trail-delete-2',
          method: 'DELETE',
          route: '/admin/v1/clients/:id',
          params: { id: 'no-such-client' },
          status: 404,
          on: null,
        },
        {
          at,
          source: 'api',
          request_id: 'trail-search-3',
          method: 'GET',
          route: '/admin/v1/users',
          params: { q: 'Ada', kyc_status: 'none' },
          status: 200,
          on: null,
        },
        {
          at,
          source: 'api',
          request_id: trail[2].request_id,
          method: 'GET',
          route: '/admin/v1/users/:id',
          params: { id: user.user.id },
          status: 200,
          on: `@${user.handle}`,
        },
        {
          at,
          source: 'api',
          request_id: 'trail-create-1',
          method: 'POST',
          route: '/admin/v1/clients',
          params: {},
          status: 201,
          on: null,
        },
      ],
    );
    assert.equal(trail[3].address, '203.0.113.9');
    assert.doesNotMatch(JSON.stringify(trail), /Trail shop/, 'no body is kept');
  });

  test('pages, newest first: limit and before (the id of the last action seen); bad ones are refused', async () => {
    for (let i = 0; i < 3; i++) await asAdmin('POST', '/api-keys', { body: { name: `trail ${i}` } });
    const [a, b, c] = await actions('?limit=3');
    assert.ok((a.id as number) > (b.id as number) && (b.id as number) > (c.id as number));
    assert.deepEqual(
      (await actions(`?limit=2&before=${a.id}`)).map((x) => x.id),
      [b.id, c.id],
    );
    for (const query of ['?limit=0', '?limit=201', '?limit=x', '?before=0', '?before=-1', '?before=1e3']) {
      const res = await adminRequest(t, 'GET', `/actions${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.error, 'invalid_request');
    }
  });

  test('the console’s calls are kept as the console’s, with the operator’s address and request id; the header alone does not make one', async () => {
    const session = await t.c.consoleSessions.signIn(ADMIN_TOKEN);
    const res = await t.app.inject({
      method: 'POST',
      url: '/console/api-keys',
      remoteAddress: '198.51.100.23',
      headers: {
        cookie: `callsign_console=${session.id}`,
        'content-type': 'application/x-www-form-urlencoded',
        'x-request-id': 'console-key-7',
      },
      payload: new URLSearchParams({ csrf: session.csrf, name: 'from the console' }).toString(),
    });
    assert.equal(res.statusCode, 200, res.body);
    const [kept] = await actions('?limit=1');
    assert.deepEqual(
      { ...kept, id: 0, at: 0 },
      {
        id: 0,
        at: 0,
        source: 'console',
        address: '198.51.100.23',
        request_id: 'console-key-7',
        method: 'POST',
        route: '/admin/v1/api-keys',
        params: {},
        status: 201,
        on: null,
      },
    );

    const forged = await t.request('POST', '/admin/v1/api-keys', {
      body: { name: 'forged' },
      token: ADMIN_TOKEN,
      headers: { [CONSOLE_CALL_HEADER]: 'a-guess-at-the-mark-0000000000' },
    });
    assert.equal(forged.status, 201);
    assert.equal((await actions('?limit=1'))[0].source, 'api');
  });

  test('an operator’s console sign-in and sign-out are kept; a wrong token is not', async () => {
    const signIn = async (token: string, id: string) => {
      const form = await t.app.inject({ method: 'GET', url: '/console/signin' });
      const res = await t.app.inject({
        method: 'POST',
        url: '/console/signin',
        remoteAddress: '198.51.100.41',
        headers: {
          cookie: String(form.headers['set-cookie']).split(';')[0],
          'content-type': 'application/x-www-form-urlencoded',
          'x-request-id': id,
        },
        payload: new URLSearchParams({
          csrf: /name="csrf" value="([^"]+)"/.exec(form.body)?.[1] ?? '',
          token,
        }).toString(),
      });
      return res;
    };
    const before = (await actions('?limit=1'))[0].id as number;
    assert.equal((await signIn('not-the-admin-token-000000000', 'console-wrong-1')).statusCode, 401);
    const signedIn = await signIn(ADMIN_TOKEN, 'console-in-2');
    assert.equal(signedIn.statusCode, 303);
    const cookie = ([] as string[])
      .concat(signedIn.headers['set-cookie'] as string[])
      .find((c) => c.startsWith('callsign_console=')) as string;
    const session = await t.c.consoleSessions.find(/callsign_console=([^;]+)/.exec(cookie)?.[1]);
    const out = await t.app.inject({
      method: 'POST',
      url: '/console/signout',
      remoteAddress: '198.51.100.41',
      headers: {
        cookie: cookie.split(';')[0],
        'content-type': 'application/x-www-form-urlencoded',
        'x-request-id': 'console-out-3',
      },
      payload: new URLSearchParams({ csrf: session?.csrf ?? '' }).toString(),
    });
    assert.equal(out.statusCode, 303);
    const kept = (await actions()).filter((a) => (a.id as number) > before);
    assert.deepEqual(
      kept.map((a) => [a.source, a.address, a.request_id, a.method, a.route, a.status]),
      [
        ['console', '198.51.100.41', 'console-out-3', 'POST', '/console/signout', 303],
        ['console', '198.51.100.41', 'console-in-2', 'POST', '/console/signin', 303],
      ],
    );
  });

  test('a request whose path holds U+0000 is refused, and kept with its parameters made safe', async () => {
    const before = (await actions())[0]?.id ?? 0;
    const res = await asAdmin('DELETE', '/clients/a%00b', { id: 'trail-nul' });
    assert.equal(res.status, 400);
    const kept = (await actions()).filter((a) => (a.id as number) > (before as number));
    assert.deepEqual(
      kept.map((a) => [a.request_id, a.route, a.params, a.status]),
      [['trail-nul', '/admin/v1/clients/:id', { id: 'a\\u0000b' }, 400]],
    );
    assert.ok(!t.logs.some((l) => l.includes('not kept in the trail')), 'nothing fell back to the log');
  });

  test('a trail row that cannot be written is logged and the change’s answer stands', async () => {
    const answer = await whileRefusing(t.c.db, 'admin_actions', 'INSERT', 'true', () =>
      asAdmin('POST', '/api-keys', { body: { name: 'unkept' }, id: 'trail-unkept-3' }),
    );
    assert.equal(answer.status, 201);
    assert.ok(
      t.logs.some((l) => l.includes('admin action not kept in the trail') && l.includes('trail-unkept-3')),
    );
    assert.notEqual((await actions('?limit=1'))[0].request_id, 'trail-unkept-3');
  });
});

describe('the trail’s retention (ADMIN_ACTIONS_RETENTION_DAYS)', () => {
  const requestIds = async (t: TestApp) =>
    ((await adminRequest(t, 'GET', '/actions')).body.data as { request_id: string }[]).map(
      (a) => a.request_id,
    );
  const act = (t: TestApp, id: string) =>
    t.request('POST', '/admin/v1/api-keys', {
      body: { name: id },
      token: ADMIN_TOKEN,
      headers: { 'x-request-id': id },
    });

  test('housekeeping removes the rows older than the retention, and only those', async () => {
    const t = await createTestApp({ env: { ADMIN_TOKEN, ADMIN_ACTIONS_RETENTION_DAYS: '30' } });
    try {
      assert.equal((await act(t, 'retained-old')).status, 201);
      t.clock.advance(10 * 86400);
      assert.equal((await act(t, 'retained-new')).status, 201);
      t.clock.advance(20 * 86400 - 3600);
      await t.c.worker.tick();
      assert.deepEqual(
        await requestIds(t),
        ['retained-new', 'retained-old'],
        'kept until 30 days have passed',
      );
      t.clock.advance(2 * 3600);
      await t.c.worker.tick();
      assert.deepEqual(await requestIds(t), ['retained-new']);
    } finally {
      await t.close();
    }
  });

  test('unset, the trail keeps a row 400 days', async () => {
    const t = await createTestApp({ env: { ADMIN_TOKEN } });
    try {
      assert.equal((await act(t, 'kept-400-days')).status, 201);
      t.clock.advance(399 * 86400);
      await t.c.worker.tick();
      assert.deepEqual(await requestIds(t), ['kept-400-days']);
      t.clock.advance(2 * 86400);
      await t.c.worker.tick();
      assert.deepEqual(await requestIds(t), []);
    } finally {
      await t.close();
    }
  });
});
