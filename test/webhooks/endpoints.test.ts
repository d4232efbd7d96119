import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook } from '../../src/domain/webhooks/signature.js';
import { DEFAULT_ROLL_OVERLAP_SECONDS } from '../../src/domain/webhooks/webhook-endpoints.ts';
import { createTestApp, signUp, type TestApp } from '../helpers/app.ts';
import { ADMIN_TOKEN, adminRequest } from '../helpers/oauth.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

describe('webhook endpoints in the admin API', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN } });
  });
  after(() => t.close());

  test('created with a whsec_ secret shown once, stored encrypted, listed and read without it', async () => {
    const res = await adminRequest(t, 'POST', '/webhook-endpoints', {
      url: 'https://hooks.example.com/callsign',
      events: ['session.created', 'user.created', 'user.created'],
      description: 'CRM sync',
    });
    assert.equal(res.status, 201);
    const e = res.body;
    assert.match(e.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(e.secret.slice(6), 'base64').length, 32);
    assert.deepEqual(e.events, ['session.created', 'user.created']);
    assert.equal(e.enabled, true);
    assert.equal(e.description, 'CRM sync');
    const listed = (await adminRequest(t, 'GET', '/webhook-endpoints')).body.data.find(
      (x: { id: string }) => x.id === e.id,
    );
    assert.equal(listed.secret, undefined);
    assert.equal(listed.url, 'https://hooks.example.com/callsign');
    assert.equal((await adminRequest(t, 'GET', `/webhook-endpoints/${e.id}`)).body.secret, undefined);
    const [row] = await t.c.db.query<{ secret_enc: string }>(
      'SELECT secret_enc FROM webhook_endpoints WHERE id = $1',
      [e.id],
    );
    assert.ok(!row.secret_enc.includes(e.secret.slice(6)), 'not in plain text');
    assert.ok(!row.secret_enc.includes(Buffer.from(e.secret.slice(6), 'base64').toString('hex')));
    assert.ok(!t.logs.join('').includes(e.secret.slice(6)), 'never logged');
  });

  test('"events" defaults to all ("*"); PATCH changes only what it names', async () => {
    const e = (await adminRequest(t, 'POST', '/webhook-endpoints', { url: 'https://a.example.com/h' })).body;
    assert.deepEqual(e.events, ['*']);
    const off = await adminRequest(t, 'PATCH', `/webhook-endpoints/${e.id}`, { enabled: false });
    assert.equal(off.status, 200);
    assert.equal(off.body.enabled, false);
    assert.equal(off.body.url, 'https://a.example.com/h');
    assert.deepEqual(off.body.events, ['*']);
    const moved = await adminRequest(t, 'PATCH', `/webhook-endpoints/${e.id}`, {
      url: 'https://b.example.com/h',
      events: ['user.deleted'],
      description: null,
    });
    assert.equal(moved.body.url, 'https://b.example.com/h');
    assert.deepEqual(moved.body.events, ['user.deleted']);
    assert.equal(moved.body.enabled, false);
    assert.equal((await adminRequest(t, 'DELETE', `/webhook-endpoints/${e.id}`)).status, 204);
    assert.equal((await adminRequest(t, 'GET', `/webhook-endpoints/${e.id}`)).status, 404);
    assert.equal((await adminRequest(t, 'DELETE', `/webhook-endpoints/${e.id}`)).status, 404);
  });

  test('bad bodies are invalid_request naming the field; nothing is written', async () => {
    const before = (await adminRequest(t, 'GET', '/webhook-endpoints')).body.data.length;
    const cases: [unknown, string][] = [
      [{}, 'url'],
      [{ url: 'not a url' }, 'url'],
      [{ url: 'http://hooks.example.com/h' }, 'url'], // D33: https only
      [{ url: 'ftp://hooks.example.com/h' }, 'url'],
      [{ url: 'https://user:pw@hooks.example.com/h' }, 'url'], // P42: no credentials, no fragment
      [{ url: 'https://hooks.example.com/h#part' }, 'url'],
      [{ url: 'https://10.0.0.1/h' }, 'url'], // D33: private literal
      [{ url: 'https://127.0.0.1/h' }, 'url'],
      [{ url: 'https://[::1]/h' }, 'url'],
      [{ url: 'https://169.254.169.254/latest' }, 'url'],
      [{ url: 'https://localhost/h' }, 'url'],
      [{ url: 'https://ok.example.com/h', events: [] }, 'events'],
      [{ url: 'https://ok.example.com/h', events: ['user.verified'] }, 'events'], // D34: not an event
      [{ url: 'https://ok.example.com/h', events: ['*', 'user.created'] }, 'events'],
      [{ url: 'https://ok.example.com/h', events: 'user.created' }, 'events'],
      [{ url: 'https://ok.example.com/h', enabled: 'yes' }, 'enabled'],
      [{ url: 'https://ok.example.com/h', description: 'x'.repeat(201) }, 'description'],
    ];
    for (const [body, field] of cases) {
      const res = await adminRequest(t, 'POST', '/webhook-endpoints', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error, 'invalid_request');
      assert.match(res.body.error_description, new RegExp(`\\(${field}\\)$`), JSON.stringify(body));
    }
    assert.equal((await adminRequest(t, 'GET', '/webhook-endpoints')).body.data.length, before);
    for (const url of [
      '/webhook-endpoints/nope',
      '/webhook-endpoints/00000000-0000-4000-8000-000000000000/deliveries',
    ])
      assert.equal((await adminRequest(t, 'GET', url)).status, 404);
    assert.equal((await adminRequest(t, 'POST', '/deliveries/nope/replay')).status, 404);
    assert.equal(
      (await adminRequest(t, 'GET', '/deliveries/00000000-0000-4000-8000-000000000000')).status,
      404,
    );
  });

  test('WEBHOOK_ALLOW_PRIVATE_NETWORKS=true admits http and private addresses, never link-local or metadata', async () => {
    const dev = await createTestApp({ env: { ADMIN_TOKEN, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
    try {
      const post = (url: string) =>
        dev.request('POST', '/admin/v1/webhook-endpoints', { token: ADMIN_TOKEN, body: { url } });
      for (const url of ['http://127.0.0.1:8080/h', 'http://10.0.0.5/h', 'http://localhost:3001/h'])
        assert.equal((await post(url)).status, 201, url);
      for (const url of ['http://169.254.169.254/h', 'http://[fe80::1]/h', 'http://100.100.100.200/h'])
        assert.equal((await post(url)).status, 400, url);
    } finally {
      await dev.close();
    }
  });

  test('the delivery log pages by created_at and filters by status', async () => {
    const dev = await createTestApp({ env: { ADMIN_TOKEN, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
    const receiver = new WebhookReceiver();
    try {
      const e = (
        await dev.request('POST', '/admin/v1/webhook-endpoints', {
          token: ADMIN_TOKEN,
          body: { url: await receiver.start(), events: ['user.created'] },
        })
      ).body;
      for (let i = 0; i < 3; i++) {
        await signUp(dev);
        dev.clock.advance(1);
      }
      const log = (q: string) =>
        dev.request('GET', `/admin/v1/webhook-endpoints/${e.id}/deliveries${q}`, { token: ADMIN_TOKEN });
      assert.equal((await log('?status=pending')).body.data.length, 3);
      await dev.c.deliveries.deliverDue();
      assert.equal((await log('?status=pending')).body.data.length, 0);
      const first = (await log('?limit=2')).body.data;
      assert.equal(first.length, 2);
      assert.ok(first[0].created_at > first[1].created_at, 'newest first');
      const next = (await log(`?limit=2&before=${encodeURIComponent(first[1].created_at)}`)).body.data;
      assert.equal(next.length, 1);
      assert.equal((await log('?status=delivered')).body.data.length, 3);
      for (const q of ['?status=lost', '?limit=0', '?limit=201', '?limit=1e1', '?before=yesterday'])
        assert.equal((await log(q)).status, 400, q);
    } finally {
      await receiver.close();
      await dev.close();
    }
  });

  test('a secret roll: both secrets sign during the overlap, then the new one alone', async () => {
    const dev = await createTestApp({ env: { ADMIN_TOKEN, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
    const receiver = new WebhookReceiver();
    try {
      const created = (
        await dev.request('POST', '/admin/v1/webhook-endpoints', {
          token: ADMIN_TOKEN,
          body: { url: await receiver.start(), events: ['user.created'] },
        })
      ).body;
      const rolled = await dev.request('POST', `/admin/v1/webhook-endpoints/${created.id}/roll-secret`, {
        token: ADMIN_TOKEN,
        body: {},
      });
      assert.equal(rolled.status, 200);
      const next = rolled.body.secret;
      assert.match(next, /^whsec_/);
      assert.notEqual(next, created.secret);
      assert.equal(
        Date.parse(rolled.body.previous_secret_expires_at) - dev.clock.now().getTime(),
        DEFAULT_ROLL_OVERLAP_SECONDS * 1000,
      );
      await signUp(dev);
      await dev.c.deliveries.deliverDue();
      const during = receiver.received[0];
      for (const secret of [created.secret, next]) {
        assert.ok(new Webhook(secret).verify(during.body, during.headers as Record<string, string>));
        verifyWebhook(secret, during.headers, during.body, { now: dev.clock.now().getTime() });
      }
      dev.clock.advance(DEFAULT_ROLL_OVERLAP_SECONDS);
      await signUp(dev);
      await dev.c.deliveries.deliverDue();
      const afterwards = receiver.received[1];
      const at = { now: dev.clock.now().getTime() };
      assert.equal(verifyWebhook(next, afterwards.headers, afterwards.body, at).type, 'user.created');
      assert.throws(() => verifyWebhook(created.secret, afterwards.headers, afterwards.body, at));
      assert.equal(String(afterwards.headers['webhook-signature']).split(' ').length, 1);

      const bad = await dev.request('POST', `/admin/v1/webhook-endpoints/${created.id}/roll-secret`, {
        token: ADMIN_TOKEN,
        body: { expires_in: -1 },
      });
      assert.equal(bad.status, 400);
    } finally {
      await receiver.close();
      await dev.close();
    }
  });
});
