// A test's schema on PostgreSQL, made quickly: migrating a schema costs the server most of a second, so a
// schema a test has finished with is emptied (a few milliseconds) and the next test of the same process
// takes it. What a test leaves is its rows and its sequences' values; both go. A schema a test changed (a
// table, column, trigger or function added or dropped) is dropped instead. When a process's tests end, its
// emptied schemas wait, renamed, for the next file of the same run of `npm test` (TEST_RUN_ID), which takes
// one by renaming it again (one rename wins); the run drops those left when it ends (`scripts/test.mjs`).
// Outside such a run they are dropped.
import { randomBytes } from 'node:crypto';
import { after } from 'node:test';
import { waitingPrefix } from '../../scripts/test-schemas.mjs';
import { type Database, postgresDatabase } from '../../src/storage/db.ts';
import { migrate } from '../../src/storage/migrate.ts';
import { schemaDigest } from './schema-digest.ts';

/** The table that says which migrations a schema holds: kept when the rest is emptied. */
const MIGRATIONS_TABLE = 'schema_migrations';

/** Schemas of this process, migrated and emptied, for the next test. */
const emptiedSchemas: string[] = [];
/** Whether this process's tests have ended: a schema given back then is dropped. */
let testsEnded = false;
/** The digest of a freshly migrated schema, read from the first this process migrates. */
let migratedDigest: string | undefined;

/**
 * A schema for one test: migrated to the latest version (one emptied by this process or an earlier file of
 * the run, if there is one) unless `empty`.
 */
export async function takeSchema(url: string, opts: { empty?: boolean }): Promise<string> {
  const reused = opts.empty ? undefined : (emptiedSchemas.pop() ?? (await takeWaiting(url)));
  if (reused) return reused;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await withAdmin(url, (admin) => admin.exec(`CREATE SCHEMA ${schema}`));
  if (!opts.empty) {
    const db = postgresDatabase(url, { schema, max: 1 });
    try {
      await migrate(db);
      migratedDigest ??= await schemaDigest((sql, params) => db.query(sql, params), schema);
    } finally {
      await db.close();
    }
  }
  return schema;
}

/**
 * A test's schema given back once its connections are closed: emptied for the next test, or dropped where it
 * was made `empty` (a test of the migrations) or cannot be emptied.
 */
export async function giveBackSchema(url: string, schema: string, opts: { empty?: boolean }): Promise<void> {
  await withAdmin(url, async (admin) => {
    if (!opts.empty && !testsEnded && (await emptied(admin, schema))) emptiedSchemas.push(schema);
    else await admin.exec(`DROP SCHEMA ${schema} CASCADE`);
  });
}

/**
 * Every row of the schema's tables deleted (but the migrations'), its sequences back at their start; false
 * for a schema whose tables, triggers or functions a test changed.
 */
async function emptied(admin: Database, schema: string): Promise<boolean> {
  if ((await schemaDigest((sql, params) => admin.query(sql, params), schema)) !== migratedDigest)
    return false;
  const tables = await admin.query<{ name: string }>(
    'SELECT tablename AS name FROM pg_tables WHERE schemaname = $1 AND tablename <> $2',
    [schema, MIGRATIONS_TABLE],
  );
  const sequences = await admin.query<{ name: string }>(
    'SELECT sequencename AS name FROM pg_sequences WHERE schemaname = $1',
    [schema],
  );
  // Replica mode skips the foreign keys' triggers, so the tables empty in any order.
  const statements = [
    'BEGIN',
    'SET LOCAL session_replication_role = replica',
    ...tables.map(({ name }) => `DELETE FROM ${schema}."${name}"`),
    ...sequences.map(({ name }) => `ALTER SEQUENCE ${schema}."${name}" RESTART`),
    'COMMIT',
  ];
  return admin.exec(statements.join(';\n')).then(
    () => true,
    () =>
      admin.exec('ROLLBACK').then(
        () => false,
        () => false,
      ),
  );
}

/** A schema an earlier file of the run left waiting, renamed to be this test's; none if there is none. */
async function takeWaiting(url: string): Promise<string | undefined> {
  const prefix = waitingPrefix(process.env.TEST_RUN_ID);
  if (!prefix) return undefined;
  return withAdmin(url, async (admin) => {
    const waiting = await admin.query<{ name: string }>(
      'SELECT nspname AS name FROM pg_namespace WHERE starts_with(nspname, $1) ORDER BY random()',
      [prefix],
    );
    for (const { name } of waiting) {
      const schema = `t_${randomBytes(6).toString('hex')}`;
      // Two files may reach for the same one: the rename of the first wins, the second finds it gone.
      const taken = await admin.exec(`ALTER SCHEMA ${name} RENAME TO ${schema}`).then(
        () => true,
        () => false,
      );
      if (!taken) continue;
      migratedDigest ??= await schemaDigest((sql, params) => admin.query(sql, params), schema);
      return schema;
    }
    return undefined;
  });
}

/**
 * This process's emptied schemas, once its tests have ended: renamed to wait for the run's next file, or
 * dropped outside a run.
 */
export async function leaveEmptiedSchemas(url: string): Promise<void> {
  const schemas = emptiedSchemas.splice(0);
  if (schemas.length === 0) return;
  const prefix = waitingPrefix(process.env.TEST_RUN_ID);
  await withAdmin(url, (admin) =>
    admin.exec(
      schemas
        .map((schema) =>
          prefix
            ? `ALTER SCHEMA ${schema} RENAME TO ${prefix}${randomBytes(6).toString('hex')}`
            : `DROP SCHEMA ${schema} CASCADE`,
        )
        .join(';'),
    ),
  );
}

async function withAdmin<T>(url: string, use: (admin: Database) => Promise<T>): Promise<T> {
  const admin = postgresDatabase(url, { max: 1 });
  try {
    return await use(admin);
  } finally {
    await admin.close();
  }
}

// The process's emptied schemas are left when its tests have ended. This hook runs before a test file's own
// (the file imports this first), so a schema the file gives back in its own is dropped there and then.
const testDatabaseUrl = process.env.TEST_DATABASE_URL;
if (testDatabaseUrl)
  after(() => {
    testsEnded = true;
    return leaveEmptiedSchemas(testDatabaseUrl);
  });
