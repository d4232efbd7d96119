import assert from 'node:assert/strict';
import type net from 'node:net';
import { describe, test } from 'node:test';
import { closeGracefully } from '../../src/http/plugins/connections.ts';
import { LATEST_MIGRATION } from '../../src/storage/migrate.ts';
import { createTestApp } from '../helpers/app.ts';
import { freePort } from '../helpers/free-port.ts';
import { connect } from '../helpers/raw-connection.ts';

// The probes an orchestrator asks: /health/live while the process serves, /health/ready when the database
// answers with every migration (Redis down only degrades it); each 503 once the server stops.

describe('GET /health/live and /health/ready', () => {
  test('both 200 on a serving instance; ready names no failing part', async () => {
    const t = await createTestApp();
    try {
      assert.deepEqual((await t.request('GET', '/health/live')).body, { status: 'live' });
      const ready = await t.request('GET', '/health/ready');
      assert.equal(ready.status, 200);
      assert.deepEqual(ready.body, { status: 'ready', failing: [], degraded: [] });
    } finally {
      await t.close();
    }
  });

  test('a database without the newest migration is not ready: 503 naming migrations', async () => {
    const t = await createTestApp();
    try {
      const [row] = await t.c.db.query<{ name: string }>(
        'SELECT name FROM schema_migrations WHERE version = $1',
        [LATEST_MIGRATION],
      );
      await t.c.db.query('DELETE FROM schema_migrations WHERE version = $1', [LATEST_MIGRATION]);
      const ready = await t.request('GET', '/health/ready');
      assert.equal(ready.status, 503);
      assert.deepEqual(ready.body, { status: 'not_ready', failing: ['migrations'], degraded: [] });
      assert.equal((await t.request('GET', '/health/live')).status, 200, 'alive all the same');
      await t.c.db.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        LATEST_MIGRATION,
        row.name,
      ]);
      assert.equal((await t.request('GET', '/health/ready')).status, 200);
    } finally {
      await t.close();
    }
  });

  test('a Redis that does not answer: still ready (the limits count in the database), naming redis as degraded', async () => {
    const t = await createTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${await freePort()}` } });
    try {
      const ready = await t.request('GET', '/health/ready');
      assert.equal(ready.status, 200);
      assert.deepEqual(ready.body, { status: 'ready', failing: [], degraded: ['redis'] });
    } finally {
      await t.close();
    }
  });

  test('through a stop: both answer 503 on a connection still open', async () => {
    const t = await createTestApp();
    try {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const port = (t.app.server.address() as net.AddressInfo).port;
      const probes = ['/health/live', '/health/ready'].map((path) => {
        const conn = connect(port);
        // Busy when the stop begins: a request whose body has not come yet.
        conn.write(
          'POST /auth/otp/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n',
        );
        return { path, conn };
      });
      const before = connect(port);
      before.write('GET /health/ready HTTP/1.1\r\nHost: x\r\n\r\n');
      assert.match(await before.until('"ready"'), /^HTTP\/1\.1 200/);
      // Let the server read the busy requests' heads (loopback I/O, not time the test is about).
      await new Promise((resolve) => setTimeout(resolve, 200));
      const stopped = closeGracefully(t.app, 1500);
      for (const { path, conn } of probes) {
        conn.write(`{}GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
        const both = await conn.until('SERVICE_UNAVAILABLE');
        assert.match(both.slice(both.indexOf('HTTP/1.1', 10)), /^HTTP\/1\.1 503/, path);
      }
      await stopped;
    } finally {
      await t.c.close();
      await t.close().catch(() => {});
    }
  });
});
