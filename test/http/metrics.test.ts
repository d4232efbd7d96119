import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, signUp, type TestApp } from '../helpers/app.ts';
import { sample } from '../helpers/metrics.ts';
import { ADMIN_TOKEN } from '../helpers/oauth.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';

describe('Prometheus metrics at GET /metrics', () => {
  let t: TestApp;
  const scrape = async () => {
    const res = await t.request('GET', '/metrics', { token: METRICS_TOKEN });
    assert.equal(res.status, 200);
    return String(res.body);
  };
  before(async () => {
    t = await createTestApp({
      env: { METRICS_TOKEN, ADMIN_TOKEN, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' },
    });
  });
  after(() => t.close());

  test('only with METRICS_TOKEN as the bearer token', async () => {
    for (const token of [undefined, 'wrong', `${METRICS_TOKEN}x`, ADMIN_TOKEN]) {
      const res = await t.request('GET', '/metrics', { token });
      assert.equal(res.status, 401, String(token));
      assert.equal(res.body.error.code, 'INVALID_TOKEN');
    }
    const res = await t.request('GET', '/metrics', { token: METRICS_TOKEN });
    assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  });

  test('requests by route template, method and status, with durations; no raw path in a label', async () => {
    const s = await signUp(t);
    for (let i = 0; i < 2; i++) assert.equal((await t.request('GET', '/health')).status, 200);
    assert.equal((await t.request('GET', `/users/@${s.handle}`)).status, 200);
    assert.equal((await t.request('GET', '/no/such/path/secret-123')).status, 404);
    const text = await scrape();
    const requests = (labels: Record<string, string>) => sample(text, 'callsign_http_requests_total', labels);
    assert.equal(requests({ route: '/health', method: 'GET', status: '200' }), 2);
    assert.equal(requests({ route: '/users/@:handle', method: 'GET', status: '200' }), 1);
    assert.equal(requests({ route: '/auth/signup', method: 'POST', status: '200' }), 1);
    assert.equal(requests({ route: 'unmatched', method: 'GET', status: '404' }), 1);
    assert.ok(!text.includes(s.handle) && !text.includes('secret-123'), 'no handle or raw path');
    assert.equal(
      sample(text, 'callsign_http_request_duration_seconds_count', { route: '/health', method: 'GET' }),
      2,
    );
    // The process's own figures (prom-client's defaults).
    assert.ok((sample(text, 'process_resident_memory_bytes', {}) ?? 0) > 0);
    assert.ok(text.includes('nodejs_eventloop_lag_seconds'));
  });

  test('webhook deliveries waiting, and attempts by outcome', async () => {
    const hook = new WebhookReceiver();
    const created = await t.request('POST', '/admin/v1/webhook-endpoints', {
      token: ADMIN_TOKEN,
      body: { url: await hook.start(), events: ['user.created'] },
    });
    assert.equal(created.status, 201);
    try {
      await signUp(t);
      await signUp(t);
      assert.equal(sample(await scrape(), 'callsign_webhook_deliveries_pending', {}), 2);
      let answered = 0;
      hook.respond = () => (++answered === 1 ? 500 : 204);
      await t.c.deliveries.deliverDue();
      const text = await scrape();
      assert.equal(sample(text, 'callsign_webhook_attempts_total', { outcome: 'delivered' }), 1);
      assert.equal(sample(text, 'callsign_webhook_attempts_total', { outcome: 'retrying' }), 1);
      assert.equal(sample(text, 'callsign_webhook_deliveries_pending', {}), 1, 'the one to retry');
    } finally {
      await hook.close();
    }
  });
});

describe('without METRICS_TOKEN', () => {
  test('there is no /metrics', async () => {
    const t = await createTestApp();
    try {
      const res = await t.request('GET', '/metrics');
      assert.equal(res.status, 404);
      assert.equal(res.body.error.code, 'NOT_FOUND');
    } finally {
      await t.close();
    }
  });
});
