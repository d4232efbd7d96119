import { createHash } from 'node:crypto';
import type { PGliteInterface } from '@electric-sql/pglite';
import pg from 'pg';
import { connectionPool } from './database-hosts.ts';
import { listenOn } from './listen.ts';
import { lockDataDir } from './pglite-lock.ts';
import { runRetryingReads } from './read-retry.ts';

/** The DATABASE_URL that asks for an embedded database in memory (the configuration's MEMORY_DATABASE_URL). */
const IN_MEMORY_URL = 'memory://';

export type Row = Record<string, unknown>;

/** What repositories need: parameterised queries, and multi-statement scripts for migrations. */
export interface Queryable {
  query<T = Row>(sql: string, params?: unknown[]): Promise<T[]>;
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Calls `onNotify` on each NOTIFY on `channel` (a constant identifier), and once more after a lost
   * connection is back, for what it may have missed. Answers how to stop listening.
   */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Postgres error code 23505, with the index that refused the row. */
export function uniqueViolation(err: unknown): string | undefined {
  const e = err as { code?: string; constraint?: string };
  return e?.code === '23505' ? (e.constraint ?? '') : undefined;
}

/** `date` columns (birthdays) are calendar days: read them as 'YYYY-MM-DD', never as a local-midnight Date. */
const DATE_OID = 1082;
const asText = (v: string) => v;

export function pgliteDatabase(lite: PGliteInterface): Database {
  const wrap = (q: Pick<PGliteInterface, 'query' | 'exec'>): Queryable => ({
    query: async <T>(sql: string, params?: unknown[]) =>
      (await q.query<T>(sql, params, { parsers: { [DATE_OID]: asText } })).rows,
    exec: async (sql: string) => {
      await q.exec(sql);
    },
  });
  return {
    kind: 'pglite',
    ...wrap(lite),
    transaction: (fn) => lite.transaction((tx) => fn(wrap(tx))),
    listen: async (channel, onNotify) => {
      const unlisten = await lite.listen(channel, () => onNotify());
      return () => unlisten();
    },
    close: () => lite.close(),
  };
}

/** Unset DATABASE_URL = PGlite under DATA_DIR; `memory://` = in memory. */
export async function openPglite(dataDir: string | 'memory'): Promise<Database> {
  // Loaded only when used: a PostgreSQL deployment does not carry the WebAssembly build in its memory.
  const { PGlite } = await import('@electric-sql/pglite');
  if (dataDir === 'memory') return pgliteDatabase(await PGlite.create());
  // One process at a time; the lock goes once the files are flushed and closed.
  const unlock = lockDataDir(dataDir);
  try {
    const db = pgliteDatabase(await PGlite.create(dataDir));
    return {
      ...db,
      async close() {
        try {
          await db.close();
        } finally {
          unlock();
        }
      },
    };
  } catch (err) {
    unlock();
    throw err;
  }
}

// int8 (counts, sums) as numbers, dates as text; everything else as node-postgres parses it.
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === 20
      ? (v: string) => Number(v)
      : oid === DATE_OID
        ? asText
        : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

const statementNames = new Map<string, string>();
function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (!name) {
    name = `s${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`;
    statementNames.set(sql, name);
  }
  return name;
}

/**
 * The longest a statement waits for a connection: to open one (a server that accepts and never answers, or a
 * dropped network, would hold it for minutes) or from a pool all requests hold; then it fails with a 503.
 */
const CONNECT_TIMEOUT_MS = 5000;

/** How the service reaches PostgreSQL: through a pooler in transaction mode or not, and where it LISTENs. */
export interface PostgresOptions {
  schema?: string;
  max?: number;
  connectTimeoutMs?: number;
  /** a pooler in transaction mode: no named statements (its next transaction may run on another connection) */
  pooler?: 'none' | 'transaction';
  /** where LISTEN connects; unset, `url`, except through a transaction pooler: nowhere (the workers poll) */
  listenUrl?: string;
}

export function postgresDatabase(url: string, opts: PostgresOptions = {}): Database {
  const connection = {
    connectionString: url,
    types,
    // A schema of its own lets parallel test files share one server without seeing each other.
    options: opts.schema ? `-c search_path=${opts.schema}` : undefined,
    connectionTimeoutMillis: opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
  };
  const { pool, failed, recovered } = connectionPool(connection, opts.max ?? 10);
  // An idle client that loses its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  // Named statements are parsed and planned once per connection; the SQL texts are the code's own, so their
  // number is bounded. Through a transaction pooler a connection is not the service's own: none is named.
  const named = opts.pooler !== 'transaction';
  const wrap = (c: pg.Pool | pg.PoolClient): Queryable => ({
    query: async <T>(sql: string, params?: unknown[]) => {
      const statement = named
        ? { name: statementName(sql), text: sql, values: params }
        : { text: sql, values: params };
      const run = async () => (await c.query(statement).catch(failed)).rows as T[];
      return c === pool ? runRetryingReads(sql, run, recovered) : run();
    },
    exec: async (sql: string) => {
      await c.query(sql);
    },
  });
  return {
    kind: 'postgres',
    ...wrap(pool),
    async transaction(fn) {
      const client = await pool.connect();
      // A connection lost while the transaction does other work must not crash the process: its next
      // statement fails, and the connection is not handed out again.
      let lost: Error | undefined;
      const onLost = (err: Error) => {
        lost = err;
      };
      client.on('error', onLost);
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.off('error', onLost);
        client.release(lost);
      }
    },
    // A connection of its own, outside the pool; none through a transaction pooler without a listen address.
    listen: (channel, onNotify) =>
      listenOn(opts.listenUrl ?? (named ? url : undefined), connection, channel, onNotify),
    close: () => pool.end(),
  };
}

/**
 * Whether the database answers and takes writes (the health checks): a standby, or a primary demoted by a
 * failover, answers reads only, and an instance on one cannot serve a sign-in.
 */
export async function databaseAnswers(db: Queryable): Promise<boolean> {
  const [row] = await db.query<{ writable: boolean }>(
    "SELECT NOT pg_is_in_recovery() AND current_setting('transaction_read_only') = 'off' AS writable",
  );
  return row?.writable === true;
}

/**
 * What an operator should hear about the database at start: PostgreSQL with autovacuum off never
 * reclaims the rows that token rotation leaves behind, and never refreshes the statistics the plans rest on.
 */
export async function storageWarnings(db: Database): Promise<string[]> {
  if (db.kind !== 'postgres') return [];
  const [row] = await db.query<{ on: boolean }>(`SELECT current_setting('autovacuum') = 'on' AS on`);
  return row.on
    ? []
    : [
        "PostgreSQL's autovacuum is off: dead rows pile up and statistics go stale as tables grow; turn it on, or run VACUUM ANALYZE regularly",
      ];
}

/** Where the data lives (DATABASE_URL, unset: PGlite in `dataDir`), and what stands between. */
export interface DatabaseAddress {
  databaseUrl: string | undefined;
  databasePooler: 'none' | 'transaction';
  databaseListenUrl: string | undefined;
  databasePoolSize: number;
}

export async function openDatabase(at: DatabaseAddress, dataDir: string): Promise<Database> {
  if (!at.databaseUrl) return openPglite(`${dataDir}/pglite`);
  if (at.databaseUrl === IN_MEMORY_URL) return openPglite('memory');
  return postgresDatabase(at.databaseUrl, {
    pooler: at.databasePooler,
    listenUrl: at.databaseListenUrl,
    max: at.databasePoolSize,
  });
}
