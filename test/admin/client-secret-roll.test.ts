import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { adminCommand } from '../../src/cli/admin-commands.ts';
import { loadConfig } from '../../src/config/config.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ADMIN_TOKEN, adminRequest, basicAuth, registerClient } from '../helpers/oauth.ts';

// POST /admin/v1/clients/:id/secret: a confidential client's new secret, shown once; the old one stops at once,
// or works until a grace ends. The same from `callsign clients rotate-secret`. And the trail as JSON Lines.

describe('rolling a client secret', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN } });
  });
  after(() => t.close());

  /** Whether the token endpoint's family lets the client in with this secret (introspection asks for it). */
  const authenticates = async (id: string, secret: string) =>
    (
      await t.request('POST', '/oauth/introspect', {
        body: new URLSearchParams({ token: 'nothing' }).toString(),
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basicAuth({ id, secret }),
        },
      })
    ).status === 200;

  const confidential = async () => {
    const c = await registerClient(t, { token_endpoint_auth_method: 'client_secret_basic' });
    return { id: c.client_id, secret: c.client_secret as string };
  };
  const roll = (id: string, body?: unknown) => adminRequest(t, 'POST', `/clients/${id}/secret`, body);

  test('without a grace the old secret stops at once; the new one works', async () => {
    const c = await confidential();
    assert.ok(await authenticates(c.id, c.secret));
    const rolled = await roll(c.id, {});
    assert.equal(rolled.status, 200, JSON.stringify(rolled.body));
    assert.equal(rolled.body.previous_secret_expires_at, null);
    assert.notEqual(rolled.body.client_secret, c.secret);
    assert.equal(await authenticates(c.id, c.secret), false);
    assert.ok(await authenticates(c.id, rolled.body.client_secret));
  });

  test('with a grace both work until it ends; a second roll ends the first one’s grace', async () => {
    const c = await confidential();
    const first = await roll(c.id, { grace_seconds: 60 });
    assert.equal(Date.parse(first.body.previous_secret_expires_at), t.clock.now().getTime() + 60_000);
    assert.ok(await authenticates(c.id, c.secret), 'the old secret, within the grace');
    assert.ok(await authenticates(c.id, first.body.client_secret));
    t.clock.advance(61);
    assert.equal(await authenticates(c.id, c.secret), false, 'the grace is over');
    const second = await roll(c.id, { grace_seconds: 60 });
    const third = await roll(c.id, { grace_seconds: 60 });
    assert.equal(
      await authenticates(c.id, first.body.client_secret),
      false,
      'only the secret just replaced is kept',
    );
    assert.ok(await authenticates(c.id, second.body.client_secret));
    assert.ok(await authenticates(c.id, third.body.client_secret));
  });

  test('a public client, an unknown one, or a grace out of bounds is refused; the roll is in the trail', async () => {
    const pub = await registerClient(t, { token_endpoint_auth_method: 'none' });
    assert.equal((await roll(pub.client_id)).body.error, 'invalid_request');
    assert.equal((await roll('no-such-client')).status, 404);
    const c = await confidential();
    const long = await roll(c.id, { grace_seconds: 8 * 24 * 3600 });
    assert.deepEqual([long.status, long.body.error], [400, 'invalid_request']);
    assert.equal((await roll(c.id, { grace_seconds: 'soon' })).status, 400);
    const trail = (await adminRequest(t, 'GET', '/actions?limit=5')).body.data;
    assert.ok(trail.some((a: { route: string }) => a.route === '/admin/v1/clients/:id/secret'));
  });
});

describe('callsign clients rotate-secret, and the trail exported', () => {
  let t: TestApp;
  let config: ReturnType<typeof loadConfig>;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    config = loadConfig({ CALLSIGN_ADMIN_URL: base, ADMIN_TOKEN });
  });
  after(() => t.close());

  test('the command shows the new secret once and until when the old one works', async () => {
    const c = await registerClient(t, { token_endpoint_auth_method: 'client_secret_basic' });
    const out = await adminCommand(config, ['clients', 'rotate-secret', c.client_id, '--grace', '300']);
    assert.match(
      out,
      /^client_secret: \S+ {3}\(shown once: keep it now\)\nthe old secret works until \d{4}-/,
    );
    await assert.rejects(
      adminCommand(config, ['clients', 'rotate-secret', c.client_id, '--grace', 'x']),
      /--grace/,
    );
  });

  test('GET /admin/v1/actions?format=jsonl and `callsign actions export`: every action, oldest first', async () => {
    // More than one batch of the export's reads.
    for (let i = 0; i < 1205; i++)
      await t.c.adminActions.record({
        source: 'api',
        address: '127.0.0.1',
        request_id: `r${i}`,
        method: 'POST',
        route: '/admin/v1/clients',
        params: {},
        status: 201,
      });
    const answer = await t.app.inject({
      method: 'GET',
      url: '/admin/v1/actions?format=jsonl',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    assert.match(String(answer.headers['content-type']), /^application\/x-ndjson/);
    const actions = answer.body
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    const [{ n }] = await t.c.db.query<{ n: number }>('SELECT count(*)::int AS n FROM admin_actions');
    assert.equal(actions.length, n);
    assert.ok(
      actions.every((a, i) => i === 0 || a.id > actions[i - 1].id),
      'oldest first',
    );
    const exported = await adminCommand(config, ['actions', 'export']);
    assert.ok(exported.split('\n').length >= n);
  });
});
