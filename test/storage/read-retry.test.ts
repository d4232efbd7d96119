import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { type Database, postgresDatabase } from '../../src/storage/db.ts';
import { onlyReads } from '../../src/storage/read-retry.ts';
import { TEST_DATABASE_URL } from '../helpers/database.ts';

// A statement whose connection is lost is tried once more only where running it twice changes nothing: a
// SELECT that only reads, outside a transaction. A write is never run twice.

describe('which statements are tried again', () => {
  test('a plain SELECT only reads; writes, row locks and functions that change something do not', () => {
    assert.ok(onlyReads('SELECT * FROM accounts WHERE id = $1'));
    assert.ok(onlyReads('  select count(*) from sessions'));
    for (const writes of [
      'INSERT INTO accounts (id) VALUES ($1)',
      'UPDATE sessions SET revoked_at = now()',
      'WITH spent AS (DELETE FROM codes RETURNING id) SELECT id FROM spent',
      'SELECT id FROM codes WHERE id = $1 FOR UPDATE',
      'SELECT id FROM codes FOR NO KEY UPDATE SKIP LOCKED',
      'SELECT id FROM accounts FOR SHARE',
      "SELECT pg_notify('outbox', '')",
      'SELECT pg_advisory_xact_lock(1)',
      "SELECT nextval('seq')",
    ])
      assert.ok(!onlyReads(writes), writes);
  });
});

describe(
  'a connection lost under a statement',
  { skip: !TEST_DATABASE_URL && 'needs PostgreSQL: TEST_DATABASE_URL' },
  () => {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    let admin: Database;
    let db: Database;
    before(async () => {
      admin = postgresDatabase(TEST_DATABASE_URL as string, { max: 2 });
      await admin.exec(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.marks (n int)`);
      db = postgresDatabase(TEST_DATABASE_URL as string, { schema, max: 2 });
    });
    after(async () => {
      await db.close();
      await admin.exec(`DROP SCHEMA ${schema} CASCADE`);
      await admin.close();
    });

    /** Ends the server process running a statement with this text (as a restart or failover does), once it runs. */
    async function terminateWhenRunning(marker: string) {
      for (;;) {
        const [ended] = await admin.query<{ ended: boolean }>(
          `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
            WHERE query LIKE $1 AND query NOT LIKE '%pg_stat_activity%' AND state = 'active'`,
          [`%${marker}%`],
        );
        if (ended?.ended) return;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }

    test('a read is tried again on a new connection and answers', async () => {
      const marker = `read_${randomBytes(4).toString('hex')}`;
      const [rows] = await Promise.all([
        db.query<{ one: number }>(`SELECT 1 AS one, pg_sleep(1) AS ${marker}`),
        terminateWhenRunning(marker),
      ]);
      assert.deepEqual(
        rows.map((r) => r.one),
        [1],
      );
    });

    test('a connection lost inside a transaction, between its statements: the transaction fails, nothing is written, the process goes on', async () => {
      const outcome = await db
        .transaction(async (tx) => {
          await tx.query('INSERT INTO marks (n) VALUES (2)');
          const [{ pid }] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
          // The service does other work (a hash, a vendor's call) while the server ends the connection.
          await admin.query('SELECT pg_terminate_backend($1)', [pid]);
          for (;;) {
            const [left] = await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid]);
            if (!left) break;
          }
          await tx.query('INSERT INTO marks (n) VALUES (3)');
          return 'committed';
        })
        .catch((err: Error) => `failed: ${err.message}`);
      assert.match(outcome, /^failed/);
      const [count] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM marks WHERE n > 1');
      assert.equal(count.n, 0);
    });

    test('a write is not run again: it fails, and what it would have written is not there', async () => {
      const marker = `write_${randomBytes(4).toString('hex')}`;
      const [outcome] = await Promise.all([
        db.query(`INSERT INTO marks (n) SELECT 1 FROM pg_sleep(1) AS ${marker}`).then(
          () => 'written',
          (err: Error & { code?: string }) => err.code ?? err.message,
        ),
        terminateWhenRunning(marker),
      ]);
      assert.equal(outcome, '57P01', 'admin_shutdown: the client is told, and the service answers 503');
      const [count] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM marks');
      assert.equal(count.n, 0);
    });
  },
);
