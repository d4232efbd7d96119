import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { EVENT_TYPES } from '../../src/domain/webhooks/events.ts';
import { verifyWebhook } from '../../src/domain/webhooks/signature.js';
import { MAX_ATTEMPTS, RETRY_DELAYS_SECONDS } from '../../src/domain/webhooks/webhook-rules.ts';
import { WebhookSender } from '../../src/providers/webhook-sender.ts';
import { CLAIM_LEASE_SECONDS, slotsPerReceiver } from '../../src/workers/claimed-sends.ts';
import { DELIVERIES_CHANNEL, WebhookDeliveryWorker } from '../../src/workers/webhook-delivery.ts';
import { createTestApp, events, signUp, type TestApp } from '../helpers/app.ts';
import { SoftAuthenticator } from '../helpers/authenticator.ts';
import { TEST_DATABASE_URL } from '../helpers/database.ts';
import { ADMIN_TOKEN } from '../helpers/oauth.ts';
import { type NumberTable, ownService } from '../helpers/sim-vendors.ts';
import { VendorServer } from '../helpers/vendor-server.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

const ALLOW_LOCAL = { ADMIN_TOKEN, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' };
// The kyc.* events reach a receiver in test/kyc/providers.test.ts.
const ACCOUNT_EVENTS = EVENT_TYPES.filter((type) => !type.startsWith('kyc.')).sort();

/**
 * A passkey added and removed, a set of recovery codes made and one used to set a new PIN: answers the
 * session and PIN the reset left.
 */
async function passkeyAndRecoveryEvents(t: TestApp, s: { phone: string; pin: string; access_token: string }) {
  const key = new SoftAuthenticator('http://callsign.test');
  const options = await t.request('POST', '/passkeys/registration/options', { token: s.access_token });
  const kept = await t.request('POST', '/passkeys/registration', {
    token: s.access_token,
    body: { response: key.create(options.body.data) },
  });
  await t.request('DELETE', `/passkeys/${kept.body.data.id}`, { token: s.access_token });
  const set = await t.request('POST', '/users/me/recovery-codes', {
    token: s.access_token,
    body: { pin: s.pin },
  });
  const pin = '736251';
  const reset = await t.request('POST', '/auth/pin/reset', {
    body: { phone: s.phone, recovery_code: set.body.data.codes[0], pin },
  });
  assert.equal(reset.status, 200, JSON.stringify(reset.body));
  return { pin, access_token: reset.body.data.access_token as string };
}

async function addEndpoint(t: TestApp, body: Record<string, unknown>) {
  const res = await t.request('POST', '/admin/v1/webhook-endpoints', { token: ADMIN_TOKEN, body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string; secret: string };
}

const deliveriesOf = async (t: TestApp, endpointId: string) =>
  (await t.request('GET', `/admin/v1/webhook-endpoints/${endpointId}/deliveries`, { token: ADMIN_TOKEN }))
    .body.data;

describe('webhook delivery (spec "Events")', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  // A SIM check provider, so that a code step refused for a swapped SIM sends user.phone_risk.
  const simNumbers: NumberTable = new Map();
  const simCheck = new VendorServer(ownService(simNumbers));
  before(async () => {
    const url = await simCheck.start();
    t = await createTestApp({ env: { ...ALLOW_LOCAL, SIM_CHECK_PROVIDER: 'http', SIM_CHECK_HTTP_URL: url } });
  });
  after(async () => {
    await t.close();
    await simCheck.close();
  });

  /**
   * P61: a worker whose poll is an hour, so that only a notification gets it to claim in time, and an
   * endpoint for user.created; `between` runs after the worker starts, then a sign-up must reach the hook.
   */
  async function signUpReachesSleepyWorker(between: () => Promise<void>) {
    const hook = new WebhookReceiver();
    const { id } = await addEndpoint(t, { url: await hook.start(), events: ['user.created'] });
    const worker = new WebhookDeliveryWorker({
      db: t.c.db,
      clock: t.c.clock,
      logger: t.c.logger,
      sender: new WebhookSender({ allowPrivateNetworks: true }),
      signingSecrets: (e) => t.c.webhooks.signingSecrets(e),
      pollMs: 3_600_000,
    });
    worker.start();
    try {
      await between();
      await signUp(t);
      await hook.waitFor(1);
      assert.equal(hook.envelopes()[0].type, 'user.created');
    } finally {
      await worker.stop();
      await hook.close();
      await t.request('DELETE', `/admin/v1/webhook-endpoints/${id}`, { token: ADMIN_TOKEN });
    }
  }

  test(
    'a committed event reaches the receiver at once, without waiting for the poll (LISTEN/NOTIFY)',
    { timeout: 30_000 },
    () =>
      // Its first look finds nothing; then it sleeps.
      signUpReachesSleepyWorker(() => new Promise((resolve) => setTimeout(resolve, 200))),
  );

  test(
    'a worker whose LISTEN connection is cut opens another and catches up on what it missed',
    { timeout: 30_000, skip: !TEST_DATABASE_URL && 'PostgreSQL only (PGlite has no connection to lose)' },
    () =>
      // The sign-up is written while the worker has no connection to hear it on.
      signUpReachesSleepyWorker(async () => {
        let cut = 0;
        while (cut === 0)
          // once its LISTEN has run (parallel test files may see theirs cut too: they reconnect)
          cut = (
            await t.c.db.query(
              `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
               WHERE query = 'LISTEN ${DELIVERIES_CHANNEL}' AND datname = current_database()`,
            )
          ).length;
      }),
  );

  test('every event type reaches a real receiver, verifiable in both header schemes, with the spec payload', async () => {
    receiver = new WebhookReceiver();
    const { secret, id } = await addEndpoint(t, { url: await receiver.start() });
    try {
      const s = await signUp(t, { name: 'Ada' });
      await t.request('PATCH', '/users/me', { token: s.access_token, body: { name: 'Ada L.' } });
      await t.request('POST', '/auth/logout', {
        token: s.access_token,
        body: { refresh_token: s.refresh_token },
      });
      const again = await t.request('POST', '/auth/signin', { body: { phone: s.phone, pin: s.pin } });
      const recovered = await passkeyAndRecoveryEvents(t, {
        ...s,
        access_token: again.body.data.access_token,
      });
      simNumbers.set(s.phone, { swapped: true });
      await t.request('POST', '/auth/otp/send', { body: { phone: s.phone, purpose: 'pin_reset' } });
      const refused = await t.request('POST', '/auth/otp/verify', {
        body: { phone: s.phone, purpose: 'pin_reset', code: t.sms.lastCode(s.phone) },
      });
      assert.equal(refused.status, 403, 'user.phone_risk');
      const changed = await t.request('POST', '/users/me/pin', {
        token: recovered.access_token,
        body: { current_pin: recovered.pin, new_pin: '730194' },
      });
      assert.equal(changed.status, 200, 'user.pin_changed');
      for (const step of ['lock', 'unlock'])
        assert.equal(
          (await t.request('POST', `/admin/v1/users/${s.user.id}/${step}`, { token: ADMIN_TOKEN })).status,
          200,
          `user.${step}ed`,
        );
      const last = await t.request('POST', '/auth/signin', { body: { phone: s.phone, pin: '730194' } });
      const token = last.body.data.access_token;
      const next = '+14155550142';
      await t.request('POST', '/users/me/phone', { token, body: { phone: next } });
      const moved = await t.request('POST', '/users/me/phone/confirm', {
        token,
        body: { phone: next, code: t.sms.lastCode(next), pin: '730194' },
      });
      assert.equal(moved.status, 200, 'user.phone_changed');
      await t.request('DELETE', '/users/me', {
        token,
        body: { pin: '730194', confirmation: 'DELETE MY ACCOUNT' },
      });
      assert.ok((await t.c.deliveries.deliverDue()) >= ACCOUNT_EVENTS.length);

      const outbox = new Map((await events(t)).map((e) => [e.id, e]));
      const seen = new Set<string>();
      for (const r of receiver.received) {
        // The spec's own scheme, with the service's helper...
        const envelope = verifyWebhook(secret, r.headers, r.body, { now: t.clock.now().getTime() });
        // ...and Standard Webhooks, with that standard's own library (real time: the clock has not moved).
        assert.deepEqual(new Webhook(secret).verify(r.body, r.headers as Record<string, string>), envelope);
        assert.equal(r.headers['content-type'], 'application/json');
        assert.equal(r.headers['x-service-event'], envelope.type);
        assert.match(String(r.headers['x-service-signature']), /^sha256=[0-9a-f]{64}$/);
        assert.match(String(r.headers['x-service-timestamp']), /^\d+$/);
        assert.equal(r.headers['webhook-id'], envelope.id);
        assert.deepEqual(Object.keys(envelope), ['id', 'type', 'created_at', 'data']);
        const stored = outbox.get(envelope.id);
        assert.ok(stored, 'the envelope id is the event id');
        assert.equal(envelope.type, stored.type);
        assert.equal(envelope.created_at, stored.created_at.toISOString());
        assert.deepEqual(envelope.data, stored.data);
        seen.add(envelope.type);
      }
      assert.deepEqual([...seen].sort(), ACCOUNT_EVENTS);

      const byType = (type: string) => receiver.envelopes().find((e) => e.type === type).data;
      assert.deepEqual(Object.keys(byType('user.created').user).sort(), [
        'created_at',
        'handle',
        'id',
        'name',
        'phone',
      ]);
      assert.equal(byType('user.created').user.phone, s.phone);
      assert.deepEqual(
        { ...byType('user.phone_changed'), changed_at: undefined },
        { user_id: s.user.id, previous_phone: s.phone, phone: '+14155550142', changed_at: undefined },
      );
      assert.deepEqual(
        receiver
          .envelopes()
          .filter((e) => e.type === 'user.updated')
          .map((e) => e.data.changed_fields.join())
          .sort(),
        ['name', 'phone'],
      );
      assert.deepEqual(Object.keys(byType('user.updated').user).sort(), [
        'avatar_url',
        'handle',
        'id',
        'name',
        'updated_at',
      ]);
      assert.deepEqual(Object.keys(byType('user.deleted')).sort(), ['deleted_at', 'user_id']);
      assert.deepEqual(Object.keys(byType('user.phone_risk')).sort(), [
        'detected_at',
        'reason',
        'step',
        'user_id',
      ]);
      assert.deepEqual(Object.keys(byType('passkey.created')).sort(), [
        'created_at',
        'passkey_id',
        'user_id',
      ]);
      assert.deepEqual(Object.keys(byType('passkey.deleted')).sort(), [
        'deleted_at',
        'passkey_id',
        'user_id',
      ]);
      assert.deepEqual(Object.keys(byType('recovery_codes.generated')).sort(), ['created_at', 'user_id']);
      // The reset ends the set its code came from (it was made under the old PIN): none remain.
      assert.deepEqual(byType('recovery_code.used').remaining, 0);
      assert.deepEqual(Object.keys(byType('user.pin_reset')).sort(), [
        'by',
        'removed',
        'reset_at',
        'user_id',
      ]);
      assert.deepEqual(byType('user.pin_reset').removed, { passkeys: 0, recovery_codes: true });
      assert.deepEqual(Object.keys(byType('user.pin_changed')).sort(), [
        'changed_at',
        'sessions_ended',
        'user_id',
      ]);
      assert.deepEqual(Object.keys(byType('session.created')).sort(), [
        'device_name',
        'ip_address',
        'platform',
        'session_id',
        'user_id',
      ]);
      const revoked = receiver.envelopes().filter((e) => e.type === 'session.revoked');
      assert.deepEqual(
        revoked.map((e) => e.data.reason).sort(),
        ['account_deleted', 'admin', 'logout', 'pin_reset'], // D34; `admin`: the operator's lock
      );
      const log = await deliveriesOf(t, id);
      assert.ok(
        log.every((d: { status: string; attempts: number }) => d.status === 'delivered' && d.attempts === 1),
      );
    } finally {
      await t.request('DELETE', `/admin/v1/webhook-endpoints/${id}`, { token: ADMIN_TOKEN });
      await receiver.close();
    }
  });

  test('an endpoint gets only the event types it subscribes to, and none while disabled', async () => {
    receiver = new WebhookReceiver();
    const url = await receiver.start();
    const created = await addEndpoint(t, { url, events: ['user.created'] });
    const off = await addEndpoint(t, { url: `${url}/off`, enabled: false });
    try {
      await signUp(t);
      await t.c.deliveries.deliverDue();
      assert.deepEqual(
        receiver.envelopes().map((e) => e.type),
        ['user.created'],
      );
      assert.deepEqual(await deliveriesOf(t, off.id), []);
    } finally {
      for (const e of [created, off])
        await t.request('DELETE', `/admin/v1/webhook-endpoints/${e.id}`, { token: ADMIN_TOKEN });
      await receiver.close();
    }
  });

  test('deliveries are made with the event: a later endpoint gets no older event; a disabled one keeps its own for later', async () => {
    receiver = new WebhookReceiver();
    const url = await receiver.start();
    const first = await addEndpoint(t, { url, events: ['user.created'] });
    const patch = (enabled: boolean) =>
      t.request('PATCH', `/admin/v1/webhook-endpoints/${first.id}`, {
        token: ADMIN_TOKEN,
        body: { enabled },
      });
    let later: { id: string } | undefined;
    try {
      const u = await signUp(t);
      assert.equal((await patch(false)).status, 200);
      later = await addEndpoint(t, { url: `${url}/later`, events: ['user.created'] });
      assert.equal(await t.c.deliveries.deliverDue(), 0, 'nothing is claimed for a disabled endpoint');
      assert.equal(receiver.received.length, 0);
      assert.deepEqual(
        await deliveriesOf(t, later.id),
        [],
        'the later endpoint was not there when it happened',
      );

      await patch(true);
      assert.equal(await t.c.deliveries.deliverDue(), 1);
      const [envelope] = receiver.envelopes();
      assert.equal(
        (envelope.data.user as { id: string }).id,
        u.user.id,
        'the waiting delivery goes once enabled',
      );
      assert.deepEqual(await deliveriesOf(t, later.id), []);
    } finally {
      for (const e of [first, later].filter((e) => e !== undefined))
        await t.request('DELETE', `/admin/v1/webhook-endpoints/${e.id}`, { token: ADMIN_TOKEN });
      await receiver.close();
    }
  });

  test('the retry schedule: attempts at exactly 0, 1 min, 5 min, 30 min, 2 h, 24 h; the 6th failure marks failed', async () => {
    receiver = new WebhookReceiver();
    receiver.respond = () => 500;
    const { id } = await addEndpoint(t, { url: await receiver.start(), events: ['user.created'] });
    try {
      await signUp(t);
      assert.equal(await t.c.deliveries.deliverDue(), 1, 'attempt 1 is immediate');
      for (const [i, delay] of RETRY_DELAYS_SECONDS.entries()) {
        t.clock.advance(delay - 1);
        assert.equal(await t.c.deliveries.deliverDue(), 0, `attempt ${i + 2} not a second early`);
        t.clock.advance(1);
        assert.equal(await t.c.deliveries.deliverDue(), 1, `attempt ${i + 2} after ${delay} s`);
      }
      assert.equal(receiver.received.length, MAX_ATTEMPTS);
      const [d] = await deliveriesOf(t, id);
      assert.equal(d.status, 'failed');
      assert.equal(d.attempts, 6);
      assert.equal(d.next_attempt_at, null);
      assert.equal(d.last_status_code, 500);
      t.clock.advance(7 * 24 * 3600);
      assert.equal(await t.c.deliveries.deliverDue(), 0, 'a failed delivery is not tried again');
      const ids = new Set(receiver.envelopes().map((e) => e.id));
      assert.equal(ids.size, 1, 'the same envelope id on every attempt');

      const detail = await t.request('GET', `/admin/v1/deliveries/${d.id}`, { token: ADMIN_TOKEN });
      assert.equal(detail.body.attempt_log.length, 6);
      assert.ok(detail.body.attempt_log.every((a: { status_code: number }) => a.status_code === 500));
      const started = detail.body.attempt_log.map((a: { started_at: string }) => Date.parse(a.started_at));
      assert.deepEqual(
        started.slice(1).map((s: number, i: number) => (s - started[i]) / 1000),
        [...RETRY_DELAYS_SECONDS],
        'delays count from the previous failure (D32)',
      );

      // D32: an operator replays it; it goes out now with the same id, on a fresh schedule.
      receiver.respond = () => 200;
      const replay = await t.request('POST', `/admin/v1/deliveries/${d.id}/replay`, { token: ADMIN_TOKEN });
      assert.equal(replay.status, 202);
      assert.equal(replay.body.status, 'pending');
      assert.equal(await t.c.deliveries.deliverDue(), 1);
      assert.equal(receiver.envelopes().at(-1).id, [...ids][0]);
      const done = await t.request('GET', `/admin/v1/deliveries/${d.id}`, { token: ADMIN_TOKEN });
      assert.equal(done.body.status, 'delivered');
      assert.equal(done.body.attempt_log.length, 7, 'the log keeps every attempt');
    } finally {
      await t.request('DELETE', `/admin/v1/webhook-endpoints/${id}`, { token: ADMIN_TOKEN });
      await receiver.close();
    }
  });

  test('a 2xx on the 4th attempt delivers and stops the retries', async () => {
    receiver = new WebhookReceiver();
    receiver.respond = () => (receiver.received.length < 4 ? 503 : 202);
    const { id } = await addEndpoint(t, { url: await receiver.start(), events: ['user.created'] });
    try {
      await signUp(t);
      await t.c.deliveries.deliverDue();
      for (const delay of RETRY_DELAYS_SECONDS.slice(0, 3)) {
        t.clock.advance(delay);
        await t.c.deliveries.deliverDue();
      }
      const [d] = await deliveriesOf(t, id);
      assert.equal(d.status, 'delivered');
      assert.equal(d.attempts, 4);
      assert.equal(d.last_status_code, 202);
      for (const delay of RETRY_DELAYS_SECONDS.slice(3)) {
        t.clock.advance(delay);
        assert.equal(await t.c.deliveries.deliverDue(), 0);
      }
      assert.equal(receiver.received.length, 4);
    } finally {
      await t.request('DELETE', `/admin/v1/webhook-endpoints/${id}`, { token: ADMIN_TOKEN });
      await receiver.close();
    }
  });

  test('a redirect, a refused connection and a dropped connection are failed attempts', async () => {
    receiver = new WebhookReceiver();
    receiver.respond = (_r, res) => {
      res.writeHead(307, { location: 'https://example.com/elsewhere' }).end();
      return 307;
    };
    const url = await receiver.start();
    const redirect = await addEndpoint(t, { url, events: ['user.created'] });
    const closed = await addEndpoint(t, {
      url: 'http://127.0.0.1:9/nothing-listens',
      events: ['user.created'],
    });
    try {
      await signUp(t);
      await t.c.deliveries.deliverDue();
      const [r] = await deliveriesOf(t, redirect.id);
      assert.equal(r.status, 'pending');
      assert.equal(r.last_status_code, 307);
      assert.match(r.last_error, /redirect not followed/);
      assert.equal(receiver.received.length, 1, 'the Location was not followed');
      const [c] = await deliveriesOf(t, closed.id);
      assert.equal(c.status, 'pending');
      assert.equal(c.last_status_code, null);
      assert.match(c.last_error, /ECONNREFUSED/);
      assert.equal(Date.parse(c.next_attempt_at) - t.clock.now().getTime(), RETRY_DELAYS_SECONDS[0] * 1000);
    } finally {
      for (const e of [redirect, closed])
        await t.request('DELETE', `/admin/v1/webhook-endpoints/${e.id}`, { token: ADMIN_TOKEN });
      await receiver.close();
    }
  });

  test('a receiver that does not answer in time is a failed attempt', async () => {
    // The real allowance is 10 s (D32); a sender built with a short one shows the mechanism without waiting.
    const slow = await createTestApp({
      env: ALLOW_LOCAL,
      webhookSender: new WebhookSender({ allowPrivateNetworks: true, timeoutMs: 300 }),
    });
    const hang = new WebhookReceiver();
    hang.respond = () => undefined;
    try {
      const { id } = await addEndpoint(slow, { url: await hang.start(), events: ['user.created'] });
      await signUp(slow);
      await slow.c.deliveries.deliverDue();
      const [d] = await deliveriesOf(slow, id);
      assert.equal(d.status, 'pending');
      assert.match(d.last_error, /no answer within 300 ms/);
      assert.equal(d.attempts, 1);
    } finally {
      await hang.close();
      await slow.close();
    }
  });

  test('an endpoint that never answers holds a quarter of the slots; another endpoint is served meanwhile', async () => {
    const hang = new WebhookReceiver();
    hang.respond = () => undefined;
    const fast = new WebhookReceiver();
    const a = await addEndpoint(t, { url: await hang.start(), events: ['user.created'] });
    const finished: string[] = [];
    // 8 slots, 2 per endpoint; the hanging attempts last 60 s, far past this test's wait.
    const worker = new WebhookDeliveryWorker({
      db: t.c.db,
      clock: t.c.clock,
      logger: t.c.logger,
      sender: new WebhookSender({ allowPrivateNetworks: true, timeoutMs: 60_000 }),
      signingSecrets: (e) => t.c.webhooks.signingSecrets(e),
      concurrency: 8,
      pollMs: 3_600_000,
      attempts: { inc: ({ outcome }) => finished.push(outcome as string) },
    });
    assert.equal(slotsPerReceiver(8), 2);
    let b: { id: string } | undefined;
    try {
      // A backlog for the hanging endpoint, due before anything of the other one.
      for (let i = 0; i < 10; i++) await signUp(t);
      t.clock.advance(1);
      b = await addEndpoint(t, { url: await fast.start(), events: ['user.created'] });
      await signUp(t);
      worker.start();
      const served = await fast.arrivesWithin(1, 5_000);
      assert.ok(served, "the other endpoint's delivery went out while the first one's hang");
      await hang.waitFor(2);
      const [claimed] = await t.c.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND locked_until IS NOT NULL',
        [a.id],
      );
      assert.equal(claimed.n, 2, 'the hanging endpoint holds its two slots, no more');
      assert.deepEqual(finished, ['delivered'], 'no hanging attempt had ended');
    } finally {
      const stopping = worker.stop();
      await hang.close(); // its attempts fail at once, and the worker stops
      await stopping;
      await fast.close();
      for (const { id } of [a, ...(b ? [b] : [])])
        await t.request('DELETE', `/admin/v1/webhook-endpoints/${id}`, { token: ADMIN_TOKEN });
    }
  });

  test('two instances delivering at once send each delivery once (FOR UPDATE SKIP LOCKED)', async () => {
    const second = await createTestApp({ env: ALLOW_LOCAL, shareWith: t });
    receiver = new WebhookReceiver();
    const { id } = await addEndpoint(t, { url: await receiver.start(), events: ['user.created'] });
    try {
      for (let i = 0; i < 12; i++) await signUp(t);
      const [a, b] = await Promise.all([t.c.deliveries.deliverDue(), second.c.deliveries.deliverDue()]);
      assert.equal(a + b, 12);
      const ids = receiver.envelopes().map((e) => e.id);
      assert.equal(ids.length, 12);
      assert.equal(new Set(ids).size, 12);
    } finally {
      await t.request('DELETE', `/admin/v1/webhook-endpoints/${id}`, { token: ADMIN_TOKEN });
      await receiver.close();
      await second.close();
    }
  });

  test('a claim whose worker vanished is taken again once its lease runs out, with the same envelope id', async () => {
    receiver = new WebhookReceiver();
    const { id } = await addEndpoint(t, { url: await receiver.start(), events: ['user.created'] });
    try {
      await signUp(t);
      // A worker claims and then dies before sending: its claim stands until the lease ends.
      const { webhookDeliveriesRepo } = await import('../../src/storage/repositories/webhook-deliveries.ts');
      const now = t.clock.now();
      const [claimed] = await webhookDeliveriesRepo.claimDue(
        t.c.db,
        now,
        new Date(now.getTime() + CLAIM_LEASE_SECONDS * 1000),
        { limit: 10, perReceiver: 10, busy: new Map() },
      );
      assert.ok(claimed);
      assert.equal(await t.c.deliveries.deliverDue(), 0, 'not while the claim holds');
      t.clock.advance(CLAIM_LEASE_SECONDS);
      assert.equal(await t.c.deliveries.deliverDue(), 1);
      assert.equal(receiver.envelopes()[0].id, claimed.event_id);
    } finally {
      await t.request('DELETE', `/admin/v1/webhook-endpoints/${id}`, { token: ADMIN_TOKEN });
      await receiver.close();
    }
  });

  test('an attempt that breaks (a secret that no longer decrypts) is logged and retried later, never lost', async () => {
    receiver = new WebhookReceiver();
    const { id } = await addEndpoint(t, { url: await receiver.start(), events: ['user.created'] });
    try {
      const [good] = await t.c.db.query<{ secret_enc: string }>(
        'SELECT secret_enc FROM webhook_endpoints WHERE id = $1',
        [id],
      );
      await t.c.db.query(
        `UPDATE webhook_endpoints SET secret_enc = 'v1.broken.broken.broken' WHERE id = $1`,
        [id],
      );
      await signUp(t);
      assert.equal(await t.c.deliveries.deliverDue(), 1, 'the worker carries on');
      assert.ok(t.logs.some((l) => l.includes('webhook attempt broke')));
      assert.equal(receiver.received.length, 0);
      await t.c.db.query('UPDATE webhook_endpoints SET secret_enc = $2 WHERE id = $1', [id, good.secret_enc]);
      t.clock.advance(CLAIM_LEASE_SECONDS);
      assert.equal(await t.c.deliveries.deliverDue(), 1);
      assert.equal(receiver.received.length, 1);
    } finally {
      await t.request('DELETE', `/admin/v1/webhook-endpoints/${id}`, { token: ADMIN_TOKEN });
      await receiver.close();
    }
  });
});
