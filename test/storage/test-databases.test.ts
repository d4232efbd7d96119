import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Database } from '../../src/storage/db.ts';
import { LATEST_MIGRATION } from '../../src/storage/migrate.ts';
import { createTestApp, signUp } from '../helpers/app.ts';
import { freshDatabase, TEST_DATABASE_URL, type TestDatabase } from '../helpers/database.ts';
import { pglitesStarted } from '../helpers/pglite-template.ts';

// What every test may count on from the database the helpers give it, however quickly it was made: migrated
// to the latest version, with the signing key of the test secrets on PGlite, and holding no row another test
// wrote, no sequence another test moved, no table or trigger another test made and no setting of its session.

/** One operator action written, and the id its identity sequence gave it. */
async function writeAction(db: Database): Promise<number> {
  const [row] = await db.query<{ id: string }>(
    `INSERT INTO admin_actions (at, source, address, request_id, method, route, params, status)
     VALUES (now(), 'api', '127.0.0.1', 'r', 'GET', '/x', '{}', 200) RETURNING id`,
  );
  return Number(row.id);
}

/** Whether the database's own schema holds the table. */
const hasTable = async (db: Database, name: string) =>
  (await db.query('SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = $1', [name]))
    .length > 0;

/** How many rows each table of the database's own schema holds, by table name. */
async function rowsByTable(db: Database): Promise<Record<string, number>> {
  const tables = await db.query<{ name: string }>(
    'SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename',
  );
  const counts = await db.query<{ name: string; n: number }>(
    tables
      .map(({ name }) => `SELECT '${name}' AS name, count(*)::int AS n FROM "${name}"`)
      .join(' UNION ALL '),
  );
  return Object.fromEntries(counts.map(({ name, n }) => [name, n]));
}

/** A database used as one test uses it: taken, handed to `use`, given back for the next test. */
async function asOneTest(use: (database: TestDatabase) => Promise<void>): Promise<TestDatabase> {
  const database = await freshDatabase();
  try {
    await use(database);
  } finally {
    await database.drop();
  }
  return database;
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

    const started = pglitesStarted();
    const second = await freshDatabase();
    try {
      // The schema or PGlite given back is taken again: the same one, emptied.
      if (TEST_DATABASE_URL) assert.equal(second.url, first.url, 'the schema is reused');
      else assert.equal(pglitesStarted(), started, 'the PGlite is reused');
      assert.equal(await latestMigration(second.db), LATEST_MIGRATION, 'its migrations are kept');
      const [{ n }] = await second.db.query<{ n: number }>('SELECT count(*)::int AS n FROM admin_actions');
      assert.equal(n, 0, 'no row of the test before');
      assert.equal(await writeAction(second.db), 1, 'its sequences start again');
    } finally {
      await second.drop();
    }
  });

  test('an account signed up, and every row it wrote, are gone for the next test', async () => {
    let fresh: Record<string, number> = {};
    await asOneTest(async (database) => {
      fresh = await rowsByTable(database.db);
      const t = await createTestApp({ database: database.db });
      try {
        await signUp(t);
      } finally {
        await t.close();
      }
      const written = await rowsByTable(database.db);
      assert.ok(written.users > fresh.users, 'the sign-up wrote the account');
    });
    await asOneTest(async ({ db }) => assert.deepEqual(await rowsByTable(db), fresh));
  });

  test('a table a test made is not there for the next test', async () => {
    await asOneTest(async ({ db }) => {
      await db.exec('CREATE TABLE made_by_a_test (v int)');
      await db.exec('INSERT INTO made_by_a_test VALUES (1)');
    });
    const second = await asOneTest(async ({ db }) =>
      assert.equal(await hasTable(db, 'made_by_a_test'), false),
    );
    // The one made anew in its place is reused in turn, like the first of the process.
    const third = await asOneTest(async () => {});
    if (TEST_DATABASE_URL) assert.equal(third.url, second.url, 'the schema made anew is reused');
  });

  test('the rows a fresh database holds (the signing keys) are there again for the next test', async () => {
    const keys = (db: Database) => db.query('SELECT * FROM signing_keys ORDER BY kid');
    let held: unknown[] = [];
    await asOneTest(async ({ db }) => {
      held = await keys(db);
      // On PGlite the template holds the signing key of the test secrets; on PostgreSQL the app makes it.
      if (!TEST_DATABASE_URL) assert.notEqual(held.length, 0, 'the signing keys are there');
      await db.exec('DELETE FROM signing_keys');
    });
    await asOneTest(async ({ db }) => assert.deepEqual(await keys(db), held));
  });

  test("a setting of the test before's session is gone", async () => {
    const timeZone = async (db: Database) =>
      (await db.query<{ z: string }>('SELECT current_setting($1) AS z', ['TimeZone']))[0].z;
    let fresh = '';
    await asOneTest(async ({ db }) => {
      fresh = await timeZone(db);
      await db.exec("SET TIME ZONE 'Asia/Kolkata'");
      assert.equal(await timeZone(db), 'Asia/Kolkata');
    });
    await asOneTest(async ({ db }) => assert.equal(await timeZone(db), fresh));
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
      assert.equal(await hasTable(empty.db, 'schema_migrations'), false);
    } finally {
      await empty.drop();
    }
  });
});
