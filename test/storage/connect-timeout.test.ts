import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { postgresDatabase } from '../../src/storage/db.ts';
import { TEST_DATABASE_URL } from '../helpers/database.ts';
import { silentServer } from '../helpers/silent-server.ts';
import { BIN, CHILD_CWD } from '../helpers/spawn-server.ts';

// P94: a statement waits a bounded time for a database connection, then fails, instead of hanging for as
// long as the operating system keeps a silent connection open.

// pg's words for a connection it gave up opening, and for a pool that had none free in time.
const TIMEOUT = /terminated due to connection timeout|timeout exceeded when trying to connect/;

/**
 * How a statement ends: its error, or 'still waiting' at a deadline far beyond the timeout under test, so
 * that without the timeout the test fails (and cleans up) instead of waiting forever.
 */
const outcome = (statement: Promise<unknown>) =>
  Promise.race([
    statement.then(
      () => 'answered',
      (err: Error) => err.message,
    ),
    sleep(10_000).then(() => 'still waiting'),
  ]);

describe('database connection timeout', () => {
  let silent: Awaited<ReturnType<typeof silentServer>>;
  let silentUrl: string;
  before(async () => {
    silent = await silentServer();
    silentUrl = `postgres://postgres@127.0.0.1:${silent.port}/callsign`;
  });
  after(() => silent.close());

  test('a server that never answers fails the statement and the transaction', async () => {
    const db = postgresDatabase(silentUrl, { connectTimeoutMs: 200 });
    try {
      assert.match(await outcome(db.query('SELECT 1')), TIMEOUT);
      assert.match(await outcome(db.transaction((tx) => tx.query('SELECT 1'))), TIMEOUT);
    } finally {
      silent.hangUp();
      await db.close();
    }
  });

  test('`callsign migrate` against it ends with the reason, within the default timeout', async () => {
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [BIN, 'migrate'],
        { env: { ...process.env, DATABASE_URL: silentUrl }, cwd: CHILD_CWD, timeout: 30_000 },
        (_err, _stdout, stderr) => resolve({ code: child.exitCode, stderr }),
      );
    });
    assert.equal(code, 1, stderr);
    assert.match(stderr, TIMEOUT);
  });

  test(
    'a statement that finds every connection of the pool held waits for one only as long',
    { skip: !TEST_DATABASE_URL && 'needs PostgreSQL: TEST_DATABASE_URL' },
    async () => {
      const db = postgresDatabase(TEST_DATABASE_URL as string, { max: 1, connectTimeoutMs: 200 });
      let release = () => {};
      const holding = db.transaction(
        () =>
          new Promise<void>((resolve) => {
            release = resolve;
          }),
      );
      try {
        assert.match(await outcome(db.query('SELECT 1')), TIMEOUT);
      } finally {
        release();
        await holding;
      }
      try {
        assert.deepEqual(await db.query('SELECT 1 AS one'), [{ one: 1 }], 'the pool serves again');
      } finally {
        await db.close();
      }
    },
  );
});
