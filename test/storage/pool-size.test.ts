import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/config/config.ts';
import { openDatabase } from '../../src/storage/db.ts';
import { TEST_DATABASE_URL } from '../helpers/database.ts';

// DATABASE_POOL_SIZE bounds the connections each process holds, so that an operator can fit every instance's
// pools within the pooler's pool or PostgreSQL's max_connections.

test('DATABASE_POOL_SIZE is a whole number of connections, 10 unless set', () => {
  assert.equal(loadConfig({}).databasePoolSize, 10);
  assert.equal(loadConfig({ DATABASE_POOL_SIZE: '3' }).databasePoolSize, 3);
  for (const bad of ['0', 'ten', '1.5'])
    assert.throws(() => loadConfig({ DATABASE_POOL_SIZE: bad }), /DATABASE_POOL_SIZE must be a whole number/);
});

test(
  'a process holds at most DATABASE_POOL_SIZE connections, however many statements wait',
  { skip: !TEST_DATABASE_URL && 'needs PostgreSQL: TEST_DATABASE_URL' },
  async () => {
    const db = await openDatabase(
      {
        databaseUrl: TEST_DATABASE_URL,
        databasePooler: 'none',
        databaseListenUrl: undefined,
        databasePoolSize: 2,
      },
      '.',
    );
    try {
      // Each statement holds its connection a moment, so that waiting ones would open more if they could.
      const pids = await Promise.all(
        Array.from({ length: 6 }, () =>
          db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid FROM pg_sleep(0.1)'),
        ),
      );
      assert.equal(new Set(pids.map(([row]) => row.pid)).size, 2);
    } finally {
      await db.close();
    }
  },
);
