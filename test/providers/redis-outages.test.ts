import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { TEST_REDIS_URL } from '../helpers/database.ts';
import { freePort } from '../helpers/free-port.ts';
import { silentServer } from '../helpers/silent-server.ts';

// Redis outages are logged once each, as the service's JSON lines, and so is the recovery. While Redis cannot
// be reached (stopped, or holding its connection without answering), the rate limits count in the database:
// requests are served and still limited, never let through uncounted; or, with RATE_LIMITS_WITHOUT_REDIS=closed,
// code sends are refused with 503 and Retry-After while the rest still count in the database.

const OUTAGE = 'Redis does not answer';
const linesWith = (t: TestApp, text: string) =>
  t.logs.filter((l) => l.includes(text)).map((l) => JSON.parse(l) as Record<string, unknown>);

/** Waits for the Redis client's next `count` events of this name. */
async function events(t: TestApp, name: string, count: number) {
  const redis = t.c.redis;
  assert.ok(redis);
  for (let i = 0; i < count; i++) await once(redis, name);
}

/** A TCP relay on 127.0.0.1 to a real Redis, which the test can cut and open again on the same port. */
function relayTo(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  return {
    open: (port: number) =>
      new Promise<void>((resolve) => {
        server = createServer((client) => {
          const upstream = connect(Number(target.port || 6379), target.hostname);
          for (const s of [client, upstream]) {
            sockets.add(s);
            s.on('close', () => sockets.delete(s));
            s.on('error', () => {});
          }
          client.pipe(upstream).pipe(client);
        }).listen(port, '127.0.0.1', () => resolve());
      }),
    cut: () =>
      new Promise<void>((resolve) => {
        server?.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}

describe('Redis outages', () => {
  test('an unreachable Redis is one error line however often the client retries, without the password of its URL', async () => {
    const port = await freePort(); // nothing listens there
    const t = await createTestApp({
      env: { REDIS_URL: `redis://:hunter2-redis-password@127.0.0.1:${port}` },
    });
    try {
      const res = await t.request('POST', '/auth/otp/send', {
        body: { phone: '+14155550100', purpose: 'signup' },
      });
      assert.equal(res.status, 200, 'the limits counted in the database');
      await events(t, 'error', 3);
      const lines = linesWith(t, OUTAGE);
      assert.equal(lines.length, 1, 'once per outage, not once per reconnection');
      assert.equal(lines[0].level, 50);
      assert.match(String(lines[0].reason), /ECONNREFUSED/);
      assert.ok(!t.logs.join('').includes('hunter2-redis-password'));
    } finally {
      await t.close();
    }
  });

  test('while Redis is stopped, code sends are counted in the database: the limit still holds', async () => {
    const t = await createTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${await freePort()}` } });
    try {
      const send = () =>
        t.request('POST', '/auth/otp/send', { body: { phone: '+14155550101', purpose: 'signup' } });
      for (let i = 0; i < 3; i++) assert.equal((await send()).status, 200);
      const fourth = await send();
      assert.equal(fourth.status, 429, 'the fourth code to one number within the hour');
      assert.equal(fourth.body.error.details.scope, 'otp_send_phone');
      assert.equal(t.sms.messagesTo('+14155550101').length, 3);
      const [counted] = await t.c.db.query<{ hits: number }>(
        "SELECT sum(count)::int AS hits FROM rate_counters WHERE key LIKE 'otp_send_phone:%'",
      );
      assert.equal(counted.hits, 4, 'every send counted in the database, the refused one too');
    } finally {
      await t.close();
    }
  });

  test('RATE_LIMITS_WITHOUT_REDIS=closed: while Redis is stopped a code send answers 503 with Retry-After and sends nothing; other requests are served', async () => {
    const t = await createTestApp({
      env: { REDIS_URL: `redis://127.0.0.1:${await freePort()}`, RATE_LIMITS_WITHOUT_REDIS: 'closed' },
    });
    try {
      const res = await t.request('POST', '/auth/otp/send', {
        body: { phone: '+14155550102', purpose: 'signup' },
      });
      assert.equal(res.status, 503);
      assert.equal(res.body.error.code, 'SERVICE_UNAVAILABLE');
      assert.equal(res.headers['retry-after'], '5');
      assert.deepEqual(t.sms.messagesTo('+14155550102'), [], 'no code goes out without its limit in Redis');
      const check = await t.request('GET', '/users/handle/check?handle=free_name');
      assert.equal(check.status, 200, 'a request under another limit counts in the database');
    } finally {
      await t.close();
    }
  });

  test('a Redis that accepts the connection and never answers: the request is served within its command timeout, counted in the database', async () => {
    const silent = await silentServer();
    const t = await createTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${silent.port}` } });
    try {
      const res = await Promise.race([
        t.request('POST', '/auth/otp/send', { body: { phone: '+14155550100', purpose: 'signup' } }),
        sleep(15_000).then(() => ({ status: 'still waiting', body: undefined })),
      ]);
      assert.equal(res.status, 200);
      assert.equal(t.sms.messagesTo('+14155550100').length, 1);
      const [counted] = await t.c.db.query<{ hits: number }>(
        "SELECT sum(count)::int AS hits FROM rate_counters WHERE key LIKE 'otp_send_phone:%'",
      );
      assert.equal(counted.hits, 1);
    } finally {
      // No more connections, then none held: the client's reconnections are refused, and its QUIT ends.
      const closed = silent.close();
      await t.close();
      await closed;
    }
  });

  test('/health answers 200 within a second whether Redis is stopped or hangs: the instance serves without it', async () => {
    const silent = await silentServer();
    const stoppedPort = await freePort(); // nothing listens there
    for (const url of [`redis://127.0.0.1:${stoppedPort}`, `redis://127.0.0.1:${silent.port}`]) {
      const t = await createTestApp({ env: { REDIS_URL: url } });
      try {
        const started = Date.now();
        const res = await Promise.race([
          t.request('GET', '/health'),
          sleep(1500).then(() => ({ status: 'still waiting', body: undefined })),
        ]);
        assert.equal(res.status, 200, `${url}: ${Date.now() - started} ms`);
        assert.equal(res.body.status, 'ok');
      } finally {
        await t.close();
      }
    }
    await silent.close();
  });

  test('/health/ready names Redis degraded without waiting on a client that is not connected', async () => {
    const stoppedPort = await freePort(); // nothing listens there
    const t = await createTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${stoppedPort}` } });
    try {
      const redis = t.c.redis;
      assert.ok(redis);
      assert.notEqual(redis.status, 'ready');
      // A ping now would wait out the check's deadline, longer than a load balancer's check may wait.
      let pinged = 0;
      redis.ping = (() => {
        pinged++;
        return new Promise(() => {});
      }) as typeof redis.ping;
      const res = await t.request('GET', '/health/ready');
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.degraded, ['redis']);
      assert.equal(pinged, 0);
    } finally {
      await t.close();
    }
  });

  test(
    'each outage and each end of one are a line, and the service answers again after it',
    { skip: !TEST_REDIS_URL && 'needs a real Redis: TEST_REDIS_URL' },
    async () => {
      const relay = relayTo(new URL(TEST_REDIS_URL as string));
      const port = await freePort();
      await relay.open(port);
      const t = await createTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${port}` } });
      try {
        const degraded = async () => (await t.request('GET', '/health/ready')).body.degraded;
        assert.deepEqual(await degraded(), []);
        assert.equal(linesWith(t, OUTAGE).length, 0, 'a healthy start logs no outage');

        await relay.cut();
        await events(t, 'error', 2);
        assert.deepEqual(await degraded(), ['redis']);

        await relay.open(port);
        await events(t, 'ready', 1);
        assert.deepEqual(await degraded(), []);
        assert.equal(linesWith(t, OUTAGE).length, 1);
        const back = linesWith(t, 'Redis answers again');
        assert.equal(back.length, 1);
        assert.equal(back[0].level, 30);

        await relay.cut();
        await events(t, 'error', 1);
        assert.equal(linesWith(t, OUTAGE).length, 2, 'the next outage is a line of its own');
      } finally {
        await t.close();
        await relay.cut();
      }
    },
  );
});
