import { randomBytes } from 'node:crypto';
import type { Secrets } from '../../src/config/secrets.ts';
import { hmac } from '../../src/domain/crypto.ts';
import { type Database, pgliteDatabase, postgresDatabase, type Queryable } from '../../src/storage/db.ts';
import { giveBackPglite, testPglite } from './pglite-template.ts';
import { giveBackSchema, takeSchema } from './postgres-schemas.ts';

// Tests run on PGlite by default and on PostgreSQL when TEST_DATABASE_URL is set; every test app gets a
// database of its own (a PGlite, or a schema), so tests never see each other's rows.
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

/**
 * One set of secrets per run of the suite: `npm test` gives its files one seed (TEST_SECRETS_SEED), so the
 * database template one file made opens in every other; a file run alone makes its own.
 */
const secretsSeed = process.env.TEST_SECRETS_SEED
  ? Buffer.from(process.env.TEST_SECRETS_SEED, 'hex')
  : randomBytes(32);
export const testSecrets: Secrets = {
  pinPepper: hmac(secretsSeed, 'PIN pepper'),
  keyEncryptionKey: hmac(secretsSeed, 'key-encryption key'),
};

export interface TestDatabase {
  db: Database;
  /** PostgreSQL only: a DATABASE_URL that reaches this database's schema, for a child process */
  url?: string;
  drop(): Promise<void>;
}

/** A database of its own, migrated to the latest version unless `empty` (for a test of the migrations). */
export async function freshDatabase(opts: { empty?: boolean } = {}): Promise<TestDatabase> {
  if (!TEST_DATABASE_URL) {
    const lite = await testPglite(testSecrets, opts);
    // Given back for the next test, unless the test closed it (to see how the service copes without one).
    return { db: pgliteDatabase(lite), drop: () => giveBackPglite(lite, opts) };
  }
  const serverUrl = TEST_DATABASE_URL;
  const schema = await takeSchema(serverUrl, opts);
  const db = postgresDatabase(serverUrl, { schema, max: 20 });
  const url = new URL(serverUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    db,
    url: url.toString(),
    async drop() {
      await db.close().catch(() => {});
      await giveBackSchema(serverUrl, schema, opts);
    },
  };
}

/**
 * Writes in a transaction and starts `meanwhile` before it commits, as a request arriving in that moment
 * would. On PostgreSQL the commit waits until `meanwhile` has settled or waits for a row lock in a statement
 * like `waitsIn` (a LIKE pattern; at most 5 s). PGlite has one connection: there `meanwhile` runs after.
 */
export async function meanwhileUncommitted<T>(
  db: Database,
  write: (tx: Queryable) => Promise<void>,
  meanwhile: () => Promise<T>,
  waitsIn: string,
): Promise<T> {
  let running: Promise<T> | undefined;
  await db.transaction(async (tx) => {
    await write(tx);
    let settled = false;
    running = meanwhile();
    running.then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    for (let i = 0; TEST_DATABASE_URL && !settled && i < 500; i++) {
      const waiting = await db.query(
        `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1`,
        [waitsIn],
      );
      if (waiting.length > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });
  return running as Promise<T>;
}

/** The database, counting the statements sent through it (P79, P85: how many a batch cost). */
export function countingStatements(db: Database): { db: Database; sent: string[] } {
  const sent: string[] = [];
  const wrapped: Database = {
    ...db,
    query: (sql, params) => {
      sent.push(sql);
      return db.query(sql, params);
    },
  };
  return { db: wrapped, sent };
}

/**
 * Runs `fn` while a trigger refuses the `operation` (INSERT or UPDATE) of the rows of `table` that `when`
 * (a trigger condition on NEW or OLD) picks: a statement that fails for one row of a batch.
 */
export async function whileRefusing<T>(
  db: Database,
  table: string,
  operation: 'INSERT' | 'UPDATE',
  when: string,
  fn: () => Promise<T>,
): Promise<T> {
  await db.exec(`
    CREATE FUNCTION refuse_by_test() RETURNS trigger LANGUAGE plpgsql AS
      $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$;
    CREATE TRIGGER refuse_by_test BEFORE ${operation} ON ${table}
      FOR EACH ROW WHEN (${when}) EXECUTE FUNCTION refuse_by_test();`);
  try {
    return await fn();
  } finally {
    await db.exec(`DROP TRIGGER refuse_by_test ON ${table}; DROP FUNCTION refuse_by_test();`);
  }
}
