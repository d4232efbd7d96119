import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { buildContainer, type Container } from '../../src/composition/container.ts';
import { loadConfig } from '../../src/config/config.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { ManualClock } from '../../src/providers/clock.ts';
import { outboxRepo } from '../../src/storage/repositories/outbox.ts';
import { CLAIM_LEASE_SECONDS } from '../../src/workers/claimed-sends.ts';
import { freshDatabase, TEST_DATABASE_URL, type TestDatabase } from '../helpers/database.ts';
import { freePort } from '../helpers/free-port.ts';
import { sample } from '../helpers/metrics.ts';
import { BIN, CHILD_CWD } from '../helpers/spawn-server.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

// Real `callsign worker` processes against one database: PGlite in a data directory (one process at a
// time) or a PostgreSQL schema of its own (several at once).

interface Store {
  env: Record<string, string>;
  /** the test's own container on the same database; with PGlite it must be closed before a child opens it */
  open(clock?: ManualClock): Promise<Container>;
  drop(): Promise<void>;
}

async function makeStore(): Promise<Store> {
  const secrets = {
    PIN_PEPPER: randomBytes(32).toString('base64'),
    KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  };
  let pg: TestDatabase | undefined;
  let dir: string | undefined;
  if (TEST_DATABASE_URL) pg = await freshDatabase();
  else dir = mkdtempSync(join(tmpdir(), 'callsign-worker-'));
  const env = {
    PATH: process.env.PATH ?? '',
    APP_ENV: 'development',
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    ...secrets,
    ...(pg ? { DATABASE_URL: pg.url as string } : { DATA_DIR: dir as string }),
  };
  return {
    env,
    open: (clock) =>
      buildContainer(loadConfig(env), {
        clock,
        logger: createLogger('warn'),
        ...(pg ? { db: pg.db, ownsDb: false } : {}),
      }),
    async drop() {
      await pg?.drop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

function spawnWorker(env: Record<string, string>): {
  child: ChildProcess;
  exited: Promise<number | null>;
  /** the worker has started and stops gracefully on SIGTERM from now on */
  running: Promise<void>;
  output: () => string;
} {
  const child = spawn(process.execPath, [BIN, 'worker'], {
    env,
    cwd: CHILD_CWD,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let started: () => void = () => {};
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  child.stdout?.on('data', (c) => {
    out += c;
    if (out.includes('Callsign worker running')) started();
  });
  child.stderr?.on('data', (c) => {
    out += c;
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, exited, running, output: () => out };
}

/** n events of one type in one transaction, as the domain writes them (fan-out included). */
async function queueEvents(c: Container, n: number) {
  await c.db.transaction(async (tx) => {
    for (let i = 0; i < n; i++)
      await outboxRepo.insert(tx, {
        id: randomUUID(),
        type: 'user.deleted',
        data: { user_id: randomUUID(), deleted_at: new Date().toISOString() },
        createdAt: c.clock.now(),
      });
  });
}

describe('webhook delivery across worker processes', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  after(async () => {
    for (const f of cleanup.reverse()) await f();
  });

  /** A database with a receiver's endpoint and n events waiting for it; the test's container still open. */
  const queued = async (n: number) => {
    const store = await makeStore();
    cleanup.push(() => store.drop());
    const receiver = new WebhookReceiver();
    cleanup.push(() => receiver.close());
    const setup = await store.open();
    await setup.webhooks.create({ url: await receiver.start() });
    await queueEvents(setup, n);
    return { store, receiver, setup };
  };

  test('a worker killed with SIGKILL mid-delivery: after restart the event is delivered, same envelope id', async () => {
    const { store, receiver, setup } = await queued(1);
    await setup.close();

    // The first attempt reaches the receiver, which holds it unanswered; the worker dies right then.
    receiver.respond = () => undefined;
    const worker = spawnWorker(store.env);
    cleanup.push(async () => worker.child.kill('SIGKILL'));
    await Promise.race([
      receiver.waitFor(1),
      worker.exited.then(() => assert.fail(`worker exited early:\n${worker.output()}`)),
    ]);
    worker.child.kill('SIGKILL');
    assert.equal(await worker.exited, null);

    // A worker started after it sees the dead one's claim, and takes the delivery when the claim runs out
    // (the clock is moved there instead of waiting a minute).
    receiver.respond = () => 200;
    const clock = new ManualClock();
    const restarted = await store.open(clock);
    try {
      assert.equal(await restarted.deliveries.deliverDue(), 0, 'the claim still holds');
      clock.advance(CLAIM_LEASE_SECONDS + 1);
      assert.equal(await restarted.deliveries.deliverDue(), 1);
      assert.equal(receiver.received.length, 2, 'nothing lost, one duplicate');
      const [first, second] = receiver.envelopes();
      assert.deepEqual(second, first, 'the same envelope, same id');
      const [d] = await restarted.db.query<{ status: string; attempts: number }>(
        'SELECT status, attempts FROM webhook_deliveries',
      );
      assert.deepEqual({ ...d }, { status: 'delivered', attempts: 1 });
    } finally {
      await restarted.close();
    }
  });

  test('`callsign worker` with METRICS_TOKEN serves GET /metrics on PORT, counting its own deliveries', async () => {
    const { store, receiver, setup } = await queued(3);
    await setup.close();
    const token = 'metrics-token-of-the-worker-0123';
    const worker = spawnWorker({ ...store.env, METRICS_TOKEN: token, PORT: '0', HOST: '127.0.0.1' });
    cleanup.push(async () => worker.child.kill('SIGKILL'));
    await Promise.race([
      receiver.waitFor(3),
      worker.exited.then(() => assert.fail(`worker exited early:\n${worker.output()}`)),
    ]);
    const port = /metrics: {3}http:\/\/localhost:(\d+)\/metrics/.exec(worker.output())?.[1];
    assert.ok(port, worker.output());
    const get = (path: string, auth?: string) =>
      fetch(`http://127.0.0.1:${port}${path}`, { headers: auth ? { authorization: auth } : {} });
    // The receiver has each request before the worker has recorded its outcome: scrape until it has.
    let text = '';
    for (let i = 0; i < 100; i++) {
      const scraped = await get('/metrics', `Bearer ${token}`);
      assert.equal(scraped.status, 200);
      text = await scraped.text();
      if (sample(text, 'callsign_webhook_deliveries_pending', {}) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(sample(text, 'callsign_webhook_deliveries_pending', {}), 0, text);
    assert.equal(sample(text, 'callsign_webhook_attempts_total', { outcome: 'delivered' }), 3, text);
    // Only the token opens it, and nothing else is served; both refusals in the REST envelope.
    const refused = await get('/metrics', 'Bearer metrics-token-of-the-worker-0124');
    assert.equal(refused.status, 401);
    assert.equal((await refused.json()).error.code, 'INVALID_TOKEN');
    const other = await get('/health');
    assert.equal(other.status, 404);
    assert.equal((await other.json()).error.code, 'NOT_FOUND');
    worker.child.kill('SIGTERM');
    assert.equal(await worker.exited, 0, worker.output());
  });

  test('`callsign worker` without METRICS_TOKEN listens on no port', async () => {
    const { store, receiver, setup } = await queued(1);
    await setup.close();
    const port = await freePort();
    const worker = spawnWorker({ ...store.env, PORT: String(port), HOST: '127.0.0.1' });
    cleanup.push(async () => worker.child.kill('SIGKILL'));
    await receiver.waitFor(1);
    await assert.rejects(fetch(`http://127.0.0.1:${port}/metrics`), /fetch failed/);
    assert.doesNotMatch(worker.output(), /metrics:/);
    worker.child.kill('SIGTERM');
    assert.equal(await worker.exited, 0, worker.output());
  });

  test(
    'two worker processes on one PostgreSQL deliver 1000 queued events, each exactly once',
    { skip: !TEST_DATABASE_URL && 'PGlite belongs to one process; runs with TEST_DATABASE_URL' },
    async () => {
      const { store, receiver, setup } = await queued(1000);

      const workers = [spawnWorker(store.env), spawnWorker(store.env)];
      for (const w of workers) cleanup.push(async () => w.child.kill('SIGKILL'));
      await receiver.waitFor(1000);
      for (const w of workers) {
        // One may still be starting when the other has sent them all: its SIGTERM waits until it runs.
        await w.running;
        w.child.kill('SIGTERM');
        assert.equal(await w.exited, 0, w.output());
      }
      const ids = receiver.envelopes().map((e) => e.id);
      assert.equal(ids.length, 1000);
      assert.equal(new Set(ids).size, 1000, 'no event sent twice');
      const [counts] = await setup.db.query<{ delivered: number; once: number }>(
        `SELECT count(*) FILTER (WHERE status = 'delivered') AS delivered, count(*) FILTER (WHERE attempts = 1) AS once
           FROM webhook_deliveries`,
      );
      assert.deepEqual({ ...counts }, { delivered: 1000, once: 1000 });
      const [attempts] = await setup.db.query<{ n: number }>('SELECT count(*) AS n FROM webhook_attempts');
      assert.equal(attempts.n, 1000);
      await setup.close();
    },
  );
});
