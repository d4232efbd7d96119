import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { isDatabaseUnavailable } from '../../src/storage/database-errors.ts';
import { PrimaryFinder, urlsOfHosts } from '../../src/storage/database-hosts.ts';
import { type Database, postgresDatabase } from '../../src/storage/db.ts';
import { TEST_DATABASE_URL } from '../helpers/database.ts';
import { freePort } from '../helpers/free-port.ts';

// DATABASE_URL with several hosts, as libpq takes them: the service connects to the primary among them and
// follows it when it moves. Each "host" here is a TCP proxy of its own in front of the one test server, so a
// host can go away (its connections cut) while another takes over, as a failover does.

describe('a DATABASE_URL of several hosts', () => {
  test('names each host in its order, with the same user, database and parameters', () => {
    assert.deepEqual(urlsOfHosts('postgres://u:p@a:5432,b:6432/callsign?target_session_attrs=read-write'), [
      'postgres://u:p@a:5432/callsign?target_session_attrs=read-write',
      'postgres://u:p@b:6432/callsign?target_session_attrs=read-write',
    ]);
    assert.deepEqual(urlsOfHosts('postgresql://db/callsign'), ['postgresql://db/callsign']);
  });
});

/** A TCP proxy to the test server: a host of its own, which can go away with its connections. */
async function proxyTo(target: URL) {
  const sockets = new Set<Socket>();
  /** while set, a client that closes its connection is not answered (its close waits), and is kept here */
  let heldCloses: Socket[] | undefined;
  let firstHeld: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    firstHeld = resolve;
  });
  const server: Server = createServer((client) => {
    const upstream = createConnection(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    const holding = heldCloses;
    client.pipe(upstream);
    upstream.pipe(client, { end: !holding });
    if (holding)
      client.on('end', () => {
        holding.push(client);
        firstHeld();
      });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    host: `127.0.0.1:${port}`,
    /** From now on a client's close of a connection waits; `held` settles at the first one. */
    holdCloses() {
      heldCloses = [];
    },
    held,
    /** The closes held answered. */
    answerCloses() {
      for (const client of heldCloses ?? []) client.end();
      heldCloses = undefined;
    },
    /** Refuses new connections; those open stay. */
    refuseNew: () => new Promise<void>((resolve) => server.close(() => resolve())),
    /** Gone: no new connection, and every one open is cut. */
    async stop() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe(
  'the primary among several hosts',
  { skip: !TEST_DATABASE_URL && 'needs PostgreSQL: TEST_DATABASE_URL' },
  () => {
    const server = new URL(TEST_DATABASE_URL ?? 'postgres://x');
    const urlOf = (hosts: string[]) => {
      const credentials = server.username
        ? `${server.username}${server.password ? `:${server.password}` : ''}@`
        : '';
      return `postgres://${credentials}${hosts.join(',')}${server.pathname}`;
    };
    let a: Awaited<ReturnType<typeof proxyTo>>;
    let b: Awaited<ReturnType<typeof proxyTo>>;
    let dead: string;
    before(async () => {
      [a, b] = await Promise.all([proxyTo(server), proxyTo(server)]);
      dead = `127.0.0.1:${await freePort()}`; // nothing listens there
    });
    after(async () => {
      await Promise.allSettled([a.stop(), b.stop()]);
    });

    test('a search skips a host that does not answer and takes the first that takes writes', async () => {
      const finder = new PrimaryFinder(urlsOfHosts(urlOf([dead, a.host])), {});
      assert.equal(finder.current(), urlOf([dead]));
      await finder.search();
      assert.equal(finder.current(), urlOf([a.host]));
    });

    test('a failure met while a search is under way starts one more: the host that search found may be gone', async () => {
      const c = await proxyTo(server);
      try {
        const finder = new PrimaryFinder(urlsOfHosts(urlOf([dead, c.host, b.host])), {});
        // The search finds c writable, and is still closing its connection to c when c goes away.
        c.holdCloses();
        const first = finder.search();
        await c.held;
        assert.equal(finder.current(), urlOf([c.host]));
        await c.refuseNew();
        const second = finder.search();
        c.answerCloses();
        await Promise.all([first, second]);
        assert.equal(finder.current(), urlOf([b.host]), 'the search after it skipped the host gone');
      } finally {
        await c.stop();
      }
    });

    test('LISTEN at several hosts listens on the primary among them, past a host that does not answer', async () => {
      const db: Database = postgresDatabase(urlOf([dead, a.host]), { max: 1 });
      let heard = 0;
      let told: () => void = () => {};
      const notified = new Promise<void>((resolve) => {
        told = resolve;
      });
      const stop = await db.listen('hosts_listen_test', () => {
        heard++;
        if (heard > 1) told(); // the first call comes as the connection opens
      });
      try {
        assert.equal(heard, 1, 'listening: told once for what it may have missed');
        await db.query("SELECT pg_notify('hosts_listen_test', '')").catch(async () => {
          // The pool's first connection went to the host that does not answer; it has found the primary now.
          await db.query("SELECT pg_notify('hosts_listen_test', '')");
        });
        await notified;
      } finally {
        await stop();
        await db.close();
      }
    });

    test('when the primary goes away, a write fails as unavailable, and a read is answered by the other host', async () => {
      const db: Database = postgresDatabase(urlOf([a.host, b.host]), { max: 2 });
      const mark = `m${randomBytes(4).toString('hex')}`;
      try {
        assert.deepEqual(await db.query(`SELECT '${mark}' AS m`), [{ m: mark }]);
        await a.stop();
        const lost = await db.query("SELECT pg_notify('hosts_test', '')").then(
          () => undefined,
          (err: Error) => err,
        );
        assert.ok(lost && isDatabaseUnavailable(lost), 'a statement that changes something is not run again');
        // A read meets the lost host too, waits for the search the failures started, and runs on the other.
        assert.deepEqual(await db.query('SELECT 1 AS one'), [{ one: 1 }]);
      } finally {
        await db.close();
      }
    });
  },
);
