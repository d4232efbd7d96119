import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { postgresDatabase } from '../../src/storage/db.ts';
import { SmsReceiver } from '../../test/helpers/sms-receiver.ts';
import { type BenchServer, startServer } from '../server.ts';
import { webhookReceiver } from '../webhooks.ts';
import { clientChecks, rowChecks, undeliveredWebhooks } from './checks.ts';
import { type Daemon, haproxy, pgbouncer, redisSet } from './daemons.ts';
import { OAUTH_REDIRECT } from './oauth-lane.ts';
import { startPostgresPair } from './postgres-pair.ts';
import { report } from './report.ts';
import { traffic } from './traffic.ts';

// npm run ha: the reference topology on this machine (three Callsign instances behind HAProxy, a PostgreSQL
// primary and its streaming standby, PgBouncer in transaction mode, Redis with a replica and three Sentinels),
// a steady mixed load through it, and one fault after another: an instance killed, the Redis master killed,
// the PostgreSQL primary crashed while its standby lags (the standby promoted), PgBouncer killed. Each is
// restarted. It prints, per fault, how long until every request succeeded again and what failed meanwhile,
// then the checks that must all be 0. HA_SYNCHRONOUS=off runs the database with asynchronous replication, to show what that loses.

const SYNCHRONOUS = process.env.HA_SYNCHRONOUS !== 'off';
/** How long the load runs after each fault (and before the first) */
const OBSERVE_S = Number(process.env.HA_OBSERVE_SECONDS ?? 20);
/** How far the standby has fallen behind when the primary crashes: what asynchronous replication loses. */
const LAG_S = 2;
const PORTS = { balancer: 3190, instances: [3191, 3192, 3193], pg: 5441, bouncer: 6441, redis: 6481 };
const SENTINELS = [26481, 26482, 26483];
const MASTER_NAME = 'callsign';

for (const [command, pkg] of [
  ['haproxy', 'haproxy'],
  ['pgbouncer', 'pgbouncer'],
  ['redis-sentinel', 'redis-sentinel'],
])
  if (spawnSync('sh', ['-c', `command -v ${command}`]).status !== 0)
    execFileSync('apt-get', ['install', '-y', pkg], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });

const dir = mkdtempSync(join(tmpdir(), 'callsign-ha-'));
chmodSync(dir, 0o777);
const closers: Array<() => unknown> = [];
let closing: Promise<void> | undefined;
/** Stops every part started, last first (once, whether a signal or the end asks first). */
function closeAll(): Promise<void> {
  closing ??= (async () => {
    for (const close of closers.splice(0).reverse()) await Promise.resolve(close()).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  })();
  return closing;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void closeAll().then(() => process.exit(130)));
const log = (line: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);

try {
  log(`PostgreSQL primary and standby (${SYNCHRONOUS ? 'synchronous' : 'asynchronous'} replication)`);
  const pg = startPostgresPair(dir, PORTS.pg, SYNCHRONOUS);
  closers.push(() => pg.close());
  const bouncer = pgbouncer(dir, PORTS.bouncer);
  await bouncer.start(pg.primary().port);
  closers.push(() => bouncer.kill());
  const redis = await redisSet(dir, PORTS.redis, SENTINELS, MASTER_NAME);
  closers.push(() => redis.close());
  const sms = new SmsReceiver();
  const smsUrl = await sms.start();
  closers.push(() => sms.close());
  const hooks = await webhookReceiver();
  closers.push(() => hooks.close());

  const env = {
    DATABASE_URL: `postgres://postgres@127.0.0.1:${PORTS.bouncer}/callsign`,
    DATABASE_POOLER: 'transaction',
    DATABASE_LISTEN_URL: `postgres://postgres@127.0.0.1:${PORTS.pg},127.0.0.1:${PORTS.pg + 1}/callsign`,
    REDIS_SENTINELS: SENTINELS.map((p) => `127.0.0.1:${p}`).join(','),
    REDIS_MASTER_NAME: MASTER_NAME,
    // The address clients reach, behind the balancer: every instance issues and accepts tokens as it.
    BASE_URL: `http://127.0.0.1:${PORTS.balancer}`,
    PIN_PEPPER: randomBytes(32).toString('base64'),
    KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    ADMIN_TOKEN: randomBytes(24).toString('hex'),
    SMS_PROVIDER: 'http',
    SMS_HTTP_URL: smsUrl,
    SMS_BREAKER: 'min_sends=1000000000',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    RATE_LIMITS: [
      'otp_send_address',
      'signin_address',
      'rest_address',
      'rest_user',
      'oauth_token_client',
      'oauth_authorize_address',
    ]
      .map((n) => `${n}=1000000000/60`)
      .join(','),
  };
  const instances: Array<BenchServer | undefined> = [];
  const startInstance = async (i: number) => {
    instances[i] = await startServer({ ...env, PORT: String(PORTS.instances[i]) });
  };
  // The first migrates the database; the others start on it.
  await startInstance(0);
  await Promise.all([startInstance(1), startInstance(2)]);
  closers.push(() => Promise.all(instances.map((s) => s?.stop())));
  const balancer: Daemon = await haproxy(dir, PORTS.balancer, PORTS.instances);
  closers.push(() => balancer.kill());
  log(`three instances behind HAProxy on ${PORTS.balancer}; ${cpus().length} cores`);

  const base = `http://127.0.0.1:${PORTS.balancer}`;
  const { clientId, afterSeq } = await setUp(base, env.ADMIN_TOKEN, hooks.url);
  const load = traffic(base, sms, clientId);
  load.start(5, 2);
  // Every 5 s, a line of how the load goes: a hang or an outage shows while the run goes on.
  let seen = 0;
  const pulse = setInterval(() => {
    const recent = load.ledger.answers.slice(seen);
    seen = load.ledger.answers.length;
    const failed = recent.filter((a) => a.status === 0 || a.status >= 500).length;
    log(`  ${recent.length} requests answered in 5 s, ${failed} of them failed`);
  }, 5000);
  closers.push(() => clearInterval(pulse));
  const faults: Array<{ name: string; at: number }> = [];
  await sleep(OBSERVE_S * 1000);

  const fault = async (name: string, act: () => Promise<void>) => {
    log(name);
    faults.push({ name, at: Date.now() });
    // A step of the fault itself that fails is said, and the run goes on to count what it cost.
    await act().catch((err: Error) => log(`  the fault's own step failed: ${err.message}`));
    await sleep(OBSERVE_S * 1000);
  };
  await fault('an instance killed (SIGKILL), started again 3 s later', async () => {
    const killed = instances[0];
    if (killed) process.kill(killed.pid, 'SIGKILL');
    await killed?.stop();
    await sleep(3000);
    await startInstance(0);
  });
  await fault('the Redis master killed; Sentinel promotes its replica', async () => {
    await redis.kill(PORTS.redis);
    await sleep(8000);
    await redis.restart(PORTS.redis, PORTS.redis + 1);
  });
  await fault(
    `the PostgreSQL primary crashed, its standby ${LAG_S} s behind; the standby promoted, PgBouncer repointed`,
    async () => {
      await pg.crashBehind(LAG_S * 1000);
      await pg.promote();
      bouncer.repoint(pg.primary().port);
      await pg.rejoin();
    },
  );
  await fault('PgBouncer killed, started again 2 s later', async () => {
    await bouncer.kill();
    await sleep(2000);
    await bouncer.start(pg.primary().port);
  });
  faults.push({ name: 'end', at: Date.now() });
  await load.stop();
  log('the checks: what the clients hold, the webhooks, the rows');
  const db = postgresDatabase(`postgres://postgres@127.0.0.1:${pg.primary().port}/callsign`, { max: 2 });
  try {
    const checks = {
      ...(await clientChecks(load.ledger, load.call, load.refresh)),
      ...(await undeliveredWebhooks(db, hooks, afterSeq)),
      ...(await rowChecks(db, load.ledger)),
    };
    process.stdout.write(report(load.ledger, faults, checks, SYNCHRONOUS));
  } finally {
    await db.close();
  }
} finally {
  await closeAll();
}

/**
 * What the load needs before it starts: a webhook endpoint for every event, at the local receiver, and a
 * first-party OAuth app; and where the outbox stood, so that the events counted are the run's own.
 */
async function setUp(base: string, adminToken: string, hookUrl: string) {
  const admin = (path: string, body: unknown) =>
    fetch(`${base}/admin/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => {
      if (r.status >= 300) throw new Error(`${path}: ${r.status} ${await r.text()}`);
      return r.json() as Promise<Record<string, string>>;
    });
  const db = postgresDatabase(`postgres://postgres@127.0.0.1:${PORTS.pg}/callsign`, { max: 1 });
  try {
    const [{ seq }] = await db.query<{ seq: number }>(
      'SELECT coalesce(max(seq), 0)::int AS seq FROM outbox_events',
    );
    await admin('/webhook-endpoints', { url: hookUrl, events: ['*'] });
    const client = await admin('/clients', {
      client_name: 'fault run',
      redirect_uris: [OAUTH_REDIRECT],
      scope: 'openid profile phone',
      first_party: true,
      token_endpoint_auth_method: 'none',
    });
    return { clientId: client.client_id, afterSeq: seq };
  } finally {
    await db.close();
  }
}
