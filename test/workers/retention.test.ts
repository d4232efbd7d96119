import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_RETENTION } from '../../src/config/retention-settings.ts';
import { SIGNING_ALGS } from '../../src/domain/sessions/signing-algorithms.ts';
import { overviewPage } from '../../src/http/pages/console/overview-page.ts';
import { addSeconds } from '../../src/providers/clock.ts';
import { deleteInBatches } from '../../src/storage/purges/batched-purge.ts';
import { logosRepo } from '../../src/storage/repositories/logos.ts';
import { statsRepo } from '../../src/storage/repositories/stats.ts';
import { sql } from '../../src/storage/sql.ts';
import { DISABLED_ENDPOINT_REASON, housekeeping } from '../../src/workers/housekeeping.ts';
import { createTestApp, events, signUp } from '../helpers/app.ts';
import { TEST_DATABASE_URL } from '../helpers/database.ts';
import { ADMIN_TOKEN, registerClient } from '../helpers/oauth.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

const HOUR = 3600;
const DAY = 86_400;

test('a delivery waiting for a disabled endpoint closes as failed after 72 hours; then its event ages out', async () => {
  const t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
  const receiver = new WebhookReceiver();
  try {
    const { endpoint } = await t.c.webhooks.create({ url: await receiver.start(), events: ['user.created'] });
    await signUp(t); // its delivery waits; then the endpoint is disabled
    await t.c.webhooks.update(endpoint.id, { enabled: false });
    const job = housekeeping(t.c.db);
    const status = async () =>
      (
        await t.c.db.query<{ status: string; last_error: string | null }>(
          'SELECT status, last_error FROM webhook_deliveries',
        )
      )[0];

    assert.equal((await job.run(addSeconds(t.clock.now(), 71 * HOUR))).closed_deliveries, 0);
    assert.deepEqual(
      await status(),
      { status: 'pending', last_error: null },
      'a weekend outage is waited out',
    );
    assert.equal((await job.run(addSeconds(t.clock.now(), 73 * HOUR))).closed_deliveries, 1);
    assert.deepEqual(await status(), { status: 'failed', last_error: DISABLED_ENDPOINT_REASON });

    const aged = await job.run(addSeconds(t.clock.now(), DEFAULT_RETENTION.eventsDays * DAY + HOUR));
    assert.equal(aged.outbox_events, 2, 'user.created and session.created');
    assert.equal((await events(t)).length, 0);
    assert.equal((await t.c.db.query('SELECT 1 FROM webhook_deliveries')).length, 0);
  } finally {
    await receiver.close();
    await t.close();
  }
});

test('DISABLED_ENDPOINT_PENDING_HOURS sets the wait; an enabled endpoint keeps its deliveries pending', async () => {
  const t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
  const receiver = new WebhookReceiver();
  try {
    const { endpoint } = await t.c.webhooks.create({ url: await receiver.start(), events: ['user.created'] });
    await signUp(t);
    const job = housekeeping(t.c.db, {
      retention: { ...DEFAULT_RETENTION, disabledEndpointPendingHours: 2 },
    });
    assert.equal((await job.run(addSeconds(t.clock.now(), 3 * HOUR))).closed_deliveries, 0, 'enabled');
    await t.c.webhooks.update(endpoint.id, { enabled: false });
    assert.equal((await job.run(addSeconds(t.clock.now(), HOUR))).closed_deliveries, 0);
    assert.equal((await job.run(addSeconds(t.clock.now(), 3 * HOUR))).closed_deliveries, 1);
  } finally {
    await receiver.close();
    await t.close();
  }
});

test('logos no client shows go after their retention; a logo a client shows stays', async () => {
  const t = await createTestApp({ env: { ADMIN_TOKEN } });
  try {
    const client = await registerClient(t, { token_endpoint_auth_method: 'none' });
    const logo = (name: string) => ({
      name,
      sourceUri: `https://example.com/${name}.png`,
      data: Buffer.from(name),
    });
    await logosRepo.insert(t.c.db, logo('shown'), t.clock.now());
    await logosRepo.insert(t.c.db, logo('replaced'), t.clock.now());
    await t.c.db.query('UPDATE clients SET logo_image = $1 WHERE client_id = $2', [
      'shown',
      client.client_id,
    ]);
    const job = housekeeping(t.c.db);
    assert.equal((await job.run(addSeconds(t.clock.now(), 6 * DAY))).logos, 0, 'kept a week');
    assert.equal((await job.run(addSeconds(t.clock.now(), 8 * DAY))).logos, 1);
    assert.deepEqual(
      (await t.c.db.query<{ name: string }>('SELECT name FROM logos')).map((r) => r.name),
      ['shown'],
    );
  } finally {
    await t.close();
  }
});

test('a retired signing key goes a day after it left the published key set; the signing key stays', async () => {
  const t = await createTestApp();
  try {
    await t.c.keys.rotate({ immediate: true });
    // A rotation retires the key of every algorithm at once.
    const [retired] = await t.c.db.query<{ published_until: Date }>(
      'SELECT published_until FROM signing_keys WHERE published_until IS NOT NULL',
    );
    const algs = SIGNING_ALGS.length;
    const job = housekeeping(t.c.db);
    assert.equal((await job.run(addSeconds(retired.published_until, 23 * HOUR))).signing_keys, 0);
    assert.equal((await job.run(addSeconds(retired.published_until, 25 * HOUR))).signing_keys, algs);
    assert.equal((await t.c.db.query('SELECT 1 FROM signing_keys')).length, algs);
    const { status } = await t.request('GET', '/.well-known/jwks.json');
    assert.equal(status, 200, 'the signing key still publishes');
  } finally {
    await t.close();
  }
});

test('a purge removes a backlog in batches of at most the batch size', async () => {
  const t = await createTestApp();
  try {
    await t.c.db.query(
      `INSERT INTO rate_counters (key, window_start, count) SELECT 'k' || g, $1, 1 FROM generate_series(1, 25) g`,
      [addSeconds(t.clock.now(), -2 * DAY)],
    );
    const sent: string[] = [];
    const counting = {
      query: (sql: string, p?: unknown[]) => {
        sent.push(sql);
        return t.c.db.query(sql, p);
      },
      exec: t.c.db.exec,
    };
    const target = {
      table: 'rate_counters',
      where: sql`window_start < ${addSeconds(t.clock.now(), -DAY)}`,
    };
    assert.equal(await deleteInBatches(counting as typeof t.c.db, target, 10), 25);
    assert.equal(sent.length, 3, '10, 10, then 5');
  } finally {
    await t.close();
  }
});

test(
  'a purge skips rows another transaction holds instead of waiting for them',
  { skip: !TEST_DATABASE_URL },
  async () => {
    const t = await createTestApp();
    try {
      await t.c.db.query(
        `INSERT INTO rate_counters (key, window_start, count) SELECT 'k' || g, $1, 1 FROM generate_series(1, 3) g`,
        [addSeconds(t.clock.now(), -2 * DAY)],
      );
      const target = {
        table: 'rate_counters',
        where: sql`window_start < ${addSeconds(t.clock.now(), -DAY)}`,
      };
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked = () => {};
      const isLocked = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const holder = t.c.db.transaction(async (tx) => {
        await tx.query(`SELECT 1 FROM rate_counters WHERE key = 'k1' FOR UPDATE`);
        locked();
        await held;
      });
      await isLocked;
      assert.equal(await deleteInBatches(t.c.db, target), 2, 'the held row is skipped');
      release();
      await holder;
      assert.equal(await deleteInBatches(t.c.db, target), 1, 'and taken by the next run');
    } finally {
      await t.close();
    }
  },
);

test('past its exact limit, the live-session count is estimated from a sample of the table', async () => {
  const t = await createTestApp();
  try {
    await signUp(t);
    await signUp(t);
    const exact = await statsRepo.activeSessions(t.c.db, t.clock.now());
    assert.deepEqual(exact, { count: 2, estimated: false });
    // A limit below the table's size and a sample of every page: the estimate path, with an exact answer.
    const sampled = await statsRepo.activeSessions(t.c.db, t.clock.now(), -2, 100);
    assert.deepEqual(sampled, { count: 2, estimated: true });
    const overview = {
      end: t.clock.now().toISOString(),
      hours: 24,
      series: { signups: [], signins: [], otp_sends: [], webhook_failures: [] },
    };
    const shown = (estimated: boolean) =>
      /id="active-sessions">([^<]*)</.exec(
        overviewPage(
          { csrf: 'x', section: 'overview', now: new Date() },
          { ...overview, active_sessions: 2, active_sessions_estimated: estimated },
        ),
      )?.[1];
    assert.deepEqual([shown(false), shown(true)], ['2', 'about 2'], 'the console says when it estimated');
  } finally {
    await t.close();
  }
});
