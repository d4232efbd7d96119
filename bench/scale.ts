import { randomBytes, randomInt } from 'node:crypto';
import { PinHasher } from '../src/domain/accounts/pin-hasher.ts';
import { sha256 } from '../src/domain/crypto.ts';
import { PurposeKeys } from '../src/domain/purpose-keys.ts';
import { RefreshTokenCodec } from '../src/domain/sessions/refresh-tokens.ts';
import { type Database, postgresDatabase } from '../src/storage/db.ts';
import { migrate } from '../src/storage/migrate.ts';
import { housekeeping } from '../src/workers/housekeeping.ts';
import { purgeDeletedAccounts } from '../src/workers/purge-deleted-accounts.ts';
import { seededPhone, seedLargeDatabase } from './seed/large-database.ts';

// BENCH_SCALE (e.g. 100k, 1m): the scenarios run again on a database seeded with that many accounts and what
// they hold (bench/seed). BENCH_KEEP_DATA=true keeps it, in the schema bench_scale_<accounts>, for the next run.

/** `100k`, `1m`, `250000`: a number of accounts; undefined when unset. */
export function parseScale(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const m = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(value.trim());
  if (!m) throw new Error(`BENCH_SCALE must be a number of accounts such as 100k or 1m (got "${value}")`);
  return Math.round(Number(m[1]) * { '': 1, k: 1e3, m: 1e6 }[m[2].toLowerCase() as '' | 'k' | 'm']);
}

/** The secrets the service runs with in a scaled run: the seed's PIN hashes and token chains are made with them. */
export const SCALE_SECRETS = {
  PIN_PEPPER: randomBytes(32).toString('base64'),
  KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
};

const withSchema = (url: string, schema: string) => {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
};

export interface LargeDatabase {
  url: string;
  db: Database;
  accounts: number;
  /** seconds the seed took; undefined when a kept one was used */
  seedSeconds: number | undefined;
  close(): Promise<void>;
}

/**
 * The seeded schema: kept from an earlier run when asked and complete (its secrets are kept beside it), or
 * made now. Answers its URL for the service, and a connection of the benchmark's own.
 */
export async function largeDatabase(
  serverUrl: string,
  accounts: number,
  keep: boolean,
  pin: string,
  log: (line: string) => void,
): Promise<LargeDatabase> {
  const schema = `bench_scale_${accounts}`;
  const admin = postgresDatabase(serverUrl, { max: 1 });
  const url = withSchema(serverUrl, schema);
  const kept = await admin
    .query<{ secrets: Record<string, string> }>(
      `SELECT secrets FROM ${schema}.bench_seed WHERE accounts = $1`,
      [accounts],
    )
    .catch(() => []);
  let seedSeconds: number | undefined;
  if (keep && kept.length === 1) {
    Object.assign(SCALE_SECRETS, kept[0].secrets);
    log(`using the kept seed of ${accounts} accounts (schema ${schema})`);
  } else {
    await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
    const db = postgresDatabase(url, { max: 1 });
    await migrate(db);
    const hasher = new PinHasher(Buffer.from(SCALE_SECRETS.PIN_PEPPER, 'base64'), 2);
    const pinHashes = await Promise.all(Array.from({ length: 8 }, () => hasher.hash(pin)));
    const started = performance.now();
    await seedLargeDatabase(db, {
      accounts,
      now: new Date(),
      pinHashes,
      onProgress: (n) => log(`seeded ${n} of ${accounts} accounts`),
    });
    seedSeconds = (performance.now() - started) / 1000;
    await db.exec('CREATE TABLE bench_seed (accounts int PRIMARY KEY, secrets jsonb NOT NULL)');
    await db.query('INSERT INTO bench_seed VALUES ($1, $2)', [accounts, JSON.stringify(SCALE_SECRETS)]);
    await db.close();
  }
  const db = postgresDatabase(url, { max: 2 });
  return {
    url,
    db,
    accounts,
    seedSeconds,
    async close() {
      await db.close();
      if (!keep) await admin.exec(`DROP SCHEMA ${schema} CASCADE`);
      await admin.close();
    },
  };
}

/** `n` seeded accounts' phones, at random. */
export const seededPhones = (accounts: number, n: number) =>
  Array.from({ length: n }, () => seededPhone(randomInt(1, accounts + 1)));

/**
 * Refresh chains on `n` seeded sessions of the first-party client, at random: each session's head is set to
 * a new first token, made as the service makes one (its keys derive from the same key-encryption key).
 */
export async function seededChains(large: LargeDatabase, n: number): Promise<string[]> {
  const kek = Buffer.from(SCALE_SECRETS.KEY_ENCRYPTION_KEY, 'base64');
  const codec = new RefreshTokenCodec(
    PurposeKeys.derive(kek, undefined, 'refresh-successor'),
    PurposeKeys.derive(kek, undefined, 'refresh-tag'),
  );
  const distinct = new Set<number>();
  while (distinct.size < Math.min(n, large.accounts)) distinct.add(randomInt(1, large.accounts + 1));
  const accounts = [...distinct];
  // The seed's second session of each account is the first-party client's (bench/seed/accounts.ts).
  const rows = await large.db.query<{ id: string }>(
    `SELECT md5('session' || g || '.2')::uuid::text AS id FROM unnest($1::int[]) g`,
    [accounts],
  );
  const tokens = rows.map((r) => codec.first(r.id, randomBytes(32).toString('base64url')));
  await large.db.query(
    `UPDATE sessions s SET refresh_generation = 0, refresh_hash = t.hash, refresh_expires_at = now() + interval '30 days',
            revoked_at = NULL
       FROM unnest($1::uuid[], $2::text[]) AS t(id, hash) WHERE s.id = t.id`,
    [tokens.map((t) => t.sessionId), tokens.map((t) => sha256(t.value))],
  );
  return tokens.map((t) => t.value);
}

/** The schema's size, and its five largest tables and five largest indexes. */
export async function sizeReport(db: Database): Promise<string[]> {
  const relations = await db.query<{ name: string; kind: string; bytes: number; rows: number }>(
    `SELECT c.relname AS name, c.relkind AS kind, pg_relation_size(c.oid)::float8 AS bytes, c.reltuples::float8 AS rows
       FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'i', 't')`,
  );
  const toasts = await db.query<{ bytes: number }>(
    `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::float8 AS bytes FROM pg_class c
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'`,
  );
  const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MB`;
  const top = (kind: string) =>
    relations
      .filter((r) => r.kind === kind)
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 5)
      .map(
        (r) =>
          `${r.name} ${mb(r.bytes)}${kind === 'r' ? ` (${Math.round(r.rows).toLocaleString('en')} rows)` : ''}`,
      );
  return [
    `database (its schema, with indexes and TOAST): ${mb(toasts[0].bytes)}`,
    `largest tables: ${top('r').join(', ')}`,
    `largest indexes: ${top('i').join(', ')}`,
  ];
}

/** Each hourly job run once on the large database, as the worker runs it, an hour and a day ahead. */
export async function jobTimes(db: Database): Promise<string[]> {
  const lines: string[] = [];
  for (const [label, ahead] of [
    ['the next hour', 3600],
    ['a day later', 86_400],
  ] as const) {
    const now = new Date(Date.now() + ahead * 1000);
    for (const job of [housekeeping(db), purgeDeletedAccounts(db)]) {
      const started = performance.now();
      const counts = await job.run(now);
      const removed = Object.values(counts).reduce((a: number, b) => a + Number(b), 0);
      lines.push(`${job.name} at ${label}: ${(performance.now() - started).toFixed(0)} ms, ${removed} rows`);
    }
  }
  return lines;
}

/** The scenarios' rows of both runs side by side (the same scenarios, in the same order). */
export function comparisonTable(empty: string[][], large: string[][]): string[] {
  const lines = [
    '| scenario | requests/s, empty | requests/s, large | large / empty | p99 ms, empty | p99 ms, large |',
    '|---|---|---|---|---|---|',
  ];
  large.forEach((row, k) => {
    const before = empty[k];
    if (!before) return;
    const ratio = (Number(row[1]) / Number(before[1])).toFixed(2);
    lines.push(`| ${row[0]} | ${before[1]} | ${row[1]} | ${ratio} | ${before[3]} | ${row[3]} |`);
  });
  return lines;
}
