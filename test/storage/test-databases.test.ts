import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Database } from '../../src/storage/db.ts';
import { LATEST_MIGRATION } from '../../src/storage/migrate.ts';
import { freshDatabase, TEST_DATABASE_URL } from '../helpers/database.ts';

// What every test may count on from the database the helpers give it, however quickly it was made: migrated
// to the latest version, with the signing key of the test secrets on PGlite, and holding no row another test
// wrote, nor a sequence another test moved.

/** One operator action written, and the id its identity sequence gave it. */
async function writeAction(db: Database): Promise<number> {
  const [row] = await db.query<{ id: string }>(
    `INSERT INTO admin_actions (at, source, address, request_id, method, route, params, status)
     VALUES (now(), 'api', '127.0.0.1', 'r', 'GET', '/x', '{}', 200) RETURNING id`,
  );
  return Number(row.id);
}

const latestMigration = async (db: Database) =>
  (await db.query<{ v: number }>('SELECT max(version)::int AS v FROM schema_migrations'))[0].v;

describe('the databases tests are given', () => {
  test('migrated, and holding nothing of the test before, even where it is the same schema', async () => {
    const first = await freshDatabase();
    assert.equal(await latestMigration(first.db), LATEST_MIGRATION);
    assert.equal(await writeAction(first.db), 1);
    assert.equal(await writeAction(first.db), 2);
    await first.drop();

    const second = await freshDatabase();
    try {
      // On PostgreSQL the schema given back is taken again: the same one, emptied.
      if (TEST_DATABASE_URL) assert.equal(second.url, first.url, 'the schema is reused');
      assert.equal(await latestMigration(second.db), LATEST_MIGRATION, 'its migrations are kept');
      const [{ n }] = await second.db.query<{ n: number }>('SELECT count(*)::int AS n FROM admin_actions');
      assert.equal(n, 0, 'no row of the test before');
      assert.equal(await writeAction(second.db), 1, 'its sequences start again');
    } finally {
      await second.drop();
    }
  });

  test('two at once are two databases', async () => {
    const [a, b] = await Promise.all([freshDatabase(), freshDatabase()]);
    try {
      await writeAction(a.db);
      const [{ n }] = await b.db.query<{ n: number }>('SELECT count(*)::int AS n FROM admin_actions');
      assert.equal(n, 0);
    } finally {
      await Promise.all([a.drop(), b.drop()]);
    }
  });

  test('an empty one, for a test of the migrations, has no tables', async () => {
    const empty = await freshDatabase({ empty: true });
    try {
      const tables = await empty.db.query(
        "SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'schema_migrations'",
      );
      assert.equal(tables.length, 0);
    } finally {
      await empty.drop();
    }
  });
});
