// A test's schema on PostgreSQL, made quickly: migrating a schema costs the server most of a second, so a
// schema a test has finished with is emptied (a few milliseconds) and the next test of the same process
// takes it. What a test leaves is its rows and its sequences' values; both go. A schema a test changed (a
// table, column, trigger or function added or dropped) is dropped instead, and so is every schema when the
// process's tests end.
import { randomBytes } from 'node:crypto';
import { after } from 'node:test';
import { type Database, postgresDatabase } from '../../src/storage/db.ts';
import { migrate } from '../../src/storage/migrate.ts';
import { schemaDigest } from './schema-digest.ts';
import { emptyingStatements, type Fillable, fillableOf } from './schema-emptying.ts';

/** Schemas of this process, migrated and emptied, for the next test. */
const emptiedSchemas: string[] = [];
/** Whether this process's tests have ended: a schema given back then is dropped. */
let testsEnded = false;
/** A freshly migrated schema's digest, and its tables and sequences, read from the first this process
 * migrates: a schema with the same digest has the same tables and sequences. */
let migrated: { digest: string; fillable: Fillable } | undefined;

/** A schema for one test: migrated to the latest version (one emptied, if there is one) unless `empty`. */
export async function takeSchema(url: string, opts: { empty?: boolean }): Promise<string> {
  const reused = opts.empty ? undefined : emptiedSchemas.pop();
  if (reused) return reused;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await withAdmin(url, (admin) => admin.exec(`CREATE SCHEMA ${schema}`));
  if (!opts.empty) {
    const db = postgresDatabase(url, { schema, max: 1 });
    try {
      await migrate(db);
      migrated ??= {
        digest: await schemaDigest((sql, params) => db.query(sql, params), schema),
        fillable: await fillableOf((sql, params) => db.query<{ name: string }>(sql, params), schema),
      };
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
  const digest = await schemaDigest((sql, params) => admin.query(sql, params), schema);
  if (!migrated || digest !== migrated.digest) return false;
  const statements = ['BEGIN', ...emptyingStatements(migrated.fillable, schema), 'COMMIT'];
  return admin.exec(statements.join(';\n')).then(
    () => true,
    () =>
      admin.exec('ROLLBACK').then(
        () => false,
        () => false,
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

// The process's emptied schemas go when its tests have ended. This hook runs before a test file's own
// (the file imports this first), so a schema the file gives back in its own is dropped there and then.
if (process.env.TEST_DATABASE_URL)
  after(async () => {
    testsEnded = true;
    const schemas = emptiedSchemas.splice(0);
    if (schemas.length > 0)
      await withAdmin(process.env.TEST_DATABASE_URL as string, (admin) =>
        admin.exec(schemas.map((schema) => `DROP SCHEMA ${schema} CASCADE`).join(';')),
      );
  });
