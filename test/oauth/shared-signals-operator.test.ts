import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createLocalJWKSet } from 'jose';
import { createTestApp, signUp, type TestApp } from '../helpers/app.ts';
import { ADMIN_TOKEN, adminRequest } from '../helpers/oauth.ts';
import {
  ALL_EVENTS,
  CAEP,
  confidentialClient,
  endSession,
  readSet,
  type SignalsClient,
  sessionWith,
  ssfCall,
} from '../helpers/signals.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

// Streams the operator keeps for a client (the admin API): made for a receiver, seen by it, and enabled,
// paused or disabled by the operator, which the receiver is told by a stream-updated event (SSF §8.1.5) that
// reaches it whatever the status, by poll and by push; a status the receiver sets itself is not told back.

const STREAM_UPDATED = 'https://schemas.openid.net/secevent/ssf/event-type/stream-updated';
const POLL = { events_requested: ALL_EVENTS, delivery: { method: 'urn:ietf:rfc:8936' } };

describe('Shared Signals streams kept by the operator', () => {
  let t: TestApp;
  let jwks: ReturnType<typeof createLocalJWKSet>;
  let receiver: WebhookReceiver;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
    jwks = createLocalJWKSet((await t.request('GET', '/.well-known/jwks.json')).body);
    receiver = new WebhookReceiver();
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });

  const streamsOf = (client: SignalsClient) => `/clients/${client.id}/ssf-streams`;
  /** A SET verified as the receiver would: its one event's type and members, and its subject. */
  const read = (set: string, client: SignalsClient) => readSet(t, jwks, set, client);
  async function poll(client: SignalsClient, stream: string) {
    const res = await ssfCall(t, client, 'POST', `/ssf/poll/${stream}`, { maxEvents: 100 });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const jtis = Object.keys(res.body.sets);
    if (jtis.length) await ssfCall(t, client, 'POST', `/ssf/poll/${stream}`, { maxEvents: 0, ack: jtis });
    return Promise.all(Object.values<string>(res.body.sets).map((set) => read(set, client)));
  }

  test('the operator makes a stream the client then polls; pausing, enabling and disabling are told to it', async () => {
    const a = await confidentialClient(t);
    const made = await adminRequest(t, 'POST', streamsOf(a), POLL);
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const stream = made.body.stream_id as string;
    assert.equal(made.body.aud, a.id);
    const seen = await ssfCall(t, a, 'GET', `/ssf/streams?stream_id=${stream}`);
    assert.equal(seen.status, 200, 'the client sees the stream the operator made');
    const listed = await adminRequest(t, 'GET', streamsOf(a));
    assert.deepEqual(
      listed.body.data.map((s: { stream_id: string; status: string }) => [s.stream_id, s.status]),
      [[stream, 'enabled']],
    );

    const u = await signUp(t);
    const session = await sessionWith(t, a, u);
    const paused = await adminRequest(t, 'POST', `${streamsOf(a)}/${stream}/status`, {
      status: 'paused',
      reason: 'receiver over quota',
    });
    assert.deepEqual(paused.body, { stream_id: stream, status: 'paused', reason: 'receiver over quota' });
    await endSession(t, a, session.refresh_token);
    const whilePaused = await poll(a, stream);
    assert.deepEqual(whilePaused, [
      {
        type: STREAM_UPDATED,
        members: { status: 'paused', reason: 'receiver over quota' },
        subject: { format: 'opaque', id: stream },
      },
    ]);

    await adminRequest(t, 'POST', `${streamsOf(a)}/${stream}/status`, { status: 'enabled' });
    const enabled = await poll(a, stream);
    assert.deepEqual(
      enabled.map((e) => e.type),
      [`${CAEP}/session-revoked`, STREAM_UPDATED],
      'the event held while paused, then the notice (in the order they were queued)',
    );

    await endSession(t, a, (await sessionWith(t, a, u)).refresh_token);
    await adminRequest(t, 'POST', `${streamsOf(a)}/${stream}/status`, {
      status: 'disabled',
      reason: 'abuse',
    });
    assert.deepEqual(await poll(a, stream), [
      {
        type: STREAM_UPDATED,
        members: { status: 'disabled', reason: 'abuse' },
        subject: { format: 'opaque', id: stream },
      },
    ]);
  });

  test('a status the receiver sets itself is not told back to it', async () => {
    const a = await confidentialClient(t);
    const stream = (await adminRequest(t, 'POST', streamsOf(a), POLL)).body.stream_id;
    const own = await ssfCall(t, a, 'POST', '/ssf/status', { stream_id: stream, status: 'paused' });
    assert.equal(own.status, 200);
    await ssfCall(t, a, 'POST', '/ssf/status', { stream_id: stream, status: 'enabled' });
    assert.deepEqual(await poll(a, stream), []);
  });

  test('the operator changes and deletes a stream; another client’s stream is not found under this one', async () => {
    const a = await confidentialClient(t);
    const b = await confidentialClient(t);
    const stream = (await adminRequest(t, 'POST', streamsOf(a), POLL)).body.stream_id;
    const changed = await adminRequest(t, 'PATCH', `${streamsOf(a)}/${stream}`, {
      description: 'fraud team',
    });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.description, 'fraud team');
    assert.deepEqual(changed.body.events_requested, ALL_EVENTS, 'what is not given is kept');
    const wrong = await adminRequest(t, 'POST', `${streamsOf(b)}/${stream}/status`, { status: 'paused' });
    assert.equal(wrong.status, 404);
    assert.equal((await adminRequest(t, 'GET', '/clients/nobody/ssf-streams')).status, 404);
    const bad = await adminRequest(t, 'POST', `${streamsOf(a)}/${stream}/status`, { status: 'stopped' });
    assert.equal(bad.status, 400);
    const noEvents = await adminRequest(t, 'POST', streamsOf(a), { events_requested: [] });
    assert.equal(noEvents.status, 400);
    assert.equal((await adminRequest(t, 'DELETE', `${streamsOf(a)}/${stream}`)).status, 204);
    assert.equal((await ssfCall(t, a, 'GET', `/ssf/status?stream_id=${stream}`)).status, 404);
  });

  test('a pushed stream disabled by the operator is pushed the notice, and nothing it held', async () => {
    const endpoint = await receiver.start('/security-events');
    const a = await confidentialClient(t);
    const made = await adminRequest(t, 'POST', streamsOf(a), {
      events_requested: ALL_EVENTS,
      delivery: { method: 'urn:ietf:rfc:8935', endpoint_url: endpoint },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const stream = made.body.stream_id;
    const u = await signUp(t);
    await adminRequest(t, 'POST', `${streamsOf(a)}/${stream}/status`, { status: 'paused' });
    await endSession(t, a, (await sessionWith(t, a, u)).refresh_token);
    const from = receiver.received.length;
    assert.equal(await t.c.ssfPushes.deliverDue(), 1, 'only the notice goes while paused');
    await adminRequest(t, 'POST', `${streamsOf(a)}/${stream}/status`, { status: 'disabled' });
    assert.equal(await t.c.ssfPushes.deliverDue(), 1);
    const pushed = await Promise.all(receiver.received.slice(from).map((r) => read(r.body, a)));
    assert.deepEqual(
      pushed.map((e) => [e.type, e.members.status]),
      [
        [STREAM_UPDATED, 'paused'],
        [STREAM_UPDATED, 'disabled'],
      ],
    );
  });
});
