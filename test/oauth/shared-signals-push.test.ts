import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { createTestApp, signUp, type TestApp } from '../helpers/app.ts';
import { ADMIN_TOKEN } from '../helpers/oauth.ts';
import {
  ALL_EVENTS,
  CAEP,
  confidentialClient,
  endSession,
  sessionWith,
  ssfCall,
} from '../helpers/signals.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

// Push delivery of Shared Signals (RFC 8935): each SET POSTed to the stream's endpoint with its Authorization
// header, verified with jose as the receiver would; a receiver that fails first gets the same SET again on the
// webhooks' schedule; one that refuses a SET (400) does not get it again.

const BASE = 'http://callsign.test';

describe('Shared Signals pushed (RFC 8935)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let endpoint: string;
  let jwks: ReturnType<typeof createLocalJWKSet>;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
    receiver = new WebhookReceiver();
    endpoint = await receiver.start('/security-events');
    jwks = createLocalJWKSet((await t.request('GET', '/.well-known/jwks.json')).body);
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });

  const rowOf = async (stream: string) =>
    (
      await t.c.db.query<{ status: string; attempts: number; last_status_code: number | null }>(
        'SELECT status, attempts, last_status_code FROM ssf_events WHERE stream_id = $1 ORDER BY created_at DESC LIMIT 1',
        [stream],
      )
    )[0];

  test('a SET reaches the endpoint with the stream’s header, again after a failure; a refused one is not sent again', async () => {
    const a = await confidentialClient(t);
    const created = await ssfCall(t, a, 'POST', '/ssf/streams', {
      events_requested: ALL_EVENTS,
      delivery: {
        method: 'urn:ietf:rfc:8935',
        endpoint_url: endpoint,
        authorization_header: 'Bearer rp-secret',
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(created.body.delivery, { method: 'urn:ietf:rfc:8935', endpoint_url: endpoint });
    const stream = created.body.stream_id;
    const [stored] = await t.c.db.query<{ header: string }>(
      'SELECT authorization_header_enc AS header FROM ssf_streams WHERE id = $1',
      [stream],
    );
    assert.ok(!stored.header.includes('rp-secret'), 'the header is kept sealed');
    assert.equal(
      (await ssfCall(t, a, 'POST', `/ssf/poll/${stream}`, {})).status,
      400,
      'a pushed stream is not polled',
    );
    const patched = await ssfCall(t, a, 'PATCH', '/ssf/streams', { stream_id: stream, description: 'shop' });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual(patched.body.delivery, created.body.delivery, 'a PATCH naming no delivery keeps it');

    const u = await signUp(t);
    const statuses = [500, 202];
    receiver.respond = () => statuses.shift() ?? 202;
    await endSession(t, a, (await sessionWith(t, a, u)).refresh_token);
    const from = receiver.received.length;
    assert.equal(await t.c.ssfPushes.deliverDue(), 1);
    assert.deepEqual(await rowOf(stream), { status: 'pending', attempts: 1, last_status_code: 500 });
    assert.equal(await t.c.ssfPushes.deliverDue(), 0, 'not before its retry is due');
    t.clock.advance(61);
    assert.equal(await t.c.ssfPushes.deliverDue(), 1);
    assert.deepEqual(await rowOf(stream), { status: 'delivered', attempts: 2, last_status_code: 202 });

    const [first, second] = receiver.received.slice(from);
    assert.equal(first.body, second.body, 'the same SET, the same jti');
    assert.equal(second.headers['content-type'], 'application/secevent+jwt');
    assert.equal(second.headers.authorization, 'Bearer rp-secret');
    const { payload } = await jwtVerify(second.body, jwks, {
      issuer: BASE,
      audience: a.id,
      typ: 'secevent+jwt',
      currentDate: t.clock.now(),
    });
    assert.deepEqual(Object.keys(payload.events as object), [`${CAEP}/session-revoked`]);
    assert.deepEqual(payload.sub_id, { format: 'iss_sub', iss: BASE, sub: u.user.id });

    receiver.respond = () => 400;
    await endSession(t, a, (await sessionWith(t, a, u)).refresh_token);
    assert.equal(await t.c.ssfPushes.deliverDue(), 1);
    assert.deepEqual(await rowOf(stream), { status: 'failed', attempts: 1, last_status_code: 400 });
    t.clock.advance(3600);
    assert.equal(await t.c.ssfPushes.deliverDue(), 0, 'a refused SET is not sent again');
  });

  test('a push goes only where the outbound rules allow', async () => {
    const strict = await createTestApp({ env: { ADMIN_TOKEN } });
    try {
      const a = await confidentialClient(strict);
      const res = await ssfCall(strict, a, 'POST', '/ssf/streams', {
        events_requested: ALL_EVENTS,
        delivery: { method: 'urn:ietf:rfc:8935', endpoint_url: 'http://127.0.0.1:9/events' },
      });
      assert.equal(res.status, 400);
      assert.equal(res.body.error, 'invalid_request');
    } finally {
      await strict.close();
    }
  });
});
