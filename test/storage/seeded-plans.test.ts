import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SEED_CLIENT_ID, seededPhone, seedLargeDatabase } from '../../bench/seed/large-database.ts';
import { addSeconds } from '../../src/providers/clock.ts';
import type { Database, Queryable } from '../../src/storage/db.ts';
import { consentsRepo } from '../../src/storage/repositories/consents.ts';
import { kycRepo } from '../../src/storage/repositories/kyc.ts';
import { sessionsRepo } from '../../src/storage/repositories/sessions.ts';
import { ssoSessionsRepo } from '../../src/storage/repositories/sso-sessions.ts';
import { statsRepo } from '../../src/storage/repositories/stats.ts';
import { searchUsers } from '../../src/storage/repositories/user-search.ts';
import { usersRepo } from '../../src/storage/repositories/users.ts';
import { housekeeping } from '../../src/workers/housekeeping.ts';
import { purgeDeletedAccounts } from '../../src/workers/purge-deleted-accounts.ts';
import { freshDatabase, type TestDatabase } from '../helpers/database.ts';
import { nodes, type PlanNode } from '../helpers/plans.ts';

// On a database seeded as a service with many accounts would hold, and analysed, no statement that runs
// often or that an operator waits for reads a table that grows with use from end to end. The seed is small
// (a test's time), and on small tables a whole read is often cheaper, so sequential scans are planned only
// where nothing else can answer (enable_seqscan off): a sequential scan left in a plan is a missing index.
// So is an index read end to end without a condition, unless a LIMIT stops it early (a newest-first page).

/** Tables that stay small whatever the number of accounts: a whole read of one is fine. */
const SMALL_TABLES = new Set([
  'clients',
  'webhook_endpoints',
  'signing_keys',
  'logos',
  'jobs',
  'api_keys',
  'sms_breaker_overrides',
  'schema_migrations',
]);
const ACCOUNTS = 4000;
const now = new Date('2026-11-28T12:00:00Z');

let database: TestDatabase;
before(async () => {
  database = await freshDatabase();
  await seedLargeDatabase(database.db, { accounts: ACCOUNTS, now, pinHashes: ['not-a-real-hash'] });
});
after(() => database.drop());

/** A database that plans each statement it is sent (EXPLAIN) instead of running it, and answers zeros. */
function explaining(db: Database, plans: Array<{ sql: string; plan: PlanNode[] }>): Database {
  const q: Queryable = {
    async query<T>(sql: string, params?: unknown[]) {
      const [row] = await db.transaction(async (tx) => {
        await tx.exec('SET LOCAL enable_seqscan = off');
        return tx.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
      });
      plans.push({ sql, plan: nodes(row['QUERY PLAN'][0].Plan) });
      return [{ n: 0, rows: 0, pages: 0, verifications: 0, photos: 0 }] as T[];
    },
    exec: async () => {},
  };
  return { ...db, ...q, transaction: (fn) => fn(q) };
}

async function plansOf(call: (db: Database) => Promise<unknown>) {
  const plans: Array<{ sql: string; plan: PlanNode[] }> = [];
  await call(explaining(database.db, plans));
  assert.ok(plans.length > 0, 'the call sent statements');
  return plans;
}

const INDEX_READS = new Set(['Index Scan', 'Index Only Scan', 'Bitmap Index Scan']);

function assertNoWholeReads(plans: Array<{ sql: string; plan: PlanNode[] }>) {
  for (const { sql, plan } of plans) {
    const limited = plan.some((n) => n['Node Type'] === 'Limit');
    for (const n of plan) {
      const table = n['Relation Name'];
      const growing = table !== undefined && !SMALL_TABLES.has(table);
      const whole =
        n['Node Type'] === 'Seq Scan' || (INDEX_READS.has(n['Node Type']) && !n['Index Cond'] && !limited);
      if (growing && whole)
        assert.fail(
          `${n['Node Type']} of ${n['Index Name'] ?? table} reads it whole:\n${sql.replace(/\s+/g, ' ').slice(0, 400)}`,
        );
    }
  }
}

test('the hourly jobs reach their rows through indexes, a batch at a time', async () => {
  const plans = await plansOf((db) => housekeeping(db).run(addSeconds(now, 3600)));
  assertNoWholeReads(plans);
  const batched = plans.filter((p) => /LIMIT \$\d+ FOR UPDATE SKIP LOCKED/.test(p.sql));
  assert.ok(batched.length >= 20, `every purge is batched (${batched.length})`);
  assertNoWholeReads(await plansOf((db) => purgeDeletedAccounts(db).run(now)));
});

test('what an account deletion cascades to is found by an index on the referencing column', async () => {
  const foreignKeys = await database.db.query<{ child: string; column: string; parent: string }>(
    `SELECT c.conrelid::regclass::text AS child, a.attname AS column, c.confrelid::regclass::text AS parent
       FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
      WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace`,
  );
  assert.ok(foreignKeys.length >= 15);
  const values: Record<string, unknown> = {
    users: (await usersRepo.findLiveByPhone(database.db, seededPhone(42)))?.id,
    clients: SEED_CLIENT_ID,
  };
  const plans = [];
  for (const fk of foreignKeys) {
    const sql = `SELECT 1 FROM ${fk.child} WHERE ${fk.column} = $1`;
    const sample = await database.db.query<{ v: unknown }>(
      `SELECT ${fk.column} AS v FROM ${fk.child} LIMIT 1`,
    );
    const value = values[fk.parent] ?? sample[0]?.v ?? null;
    plans.push(...(await plansOf((db) => db.query(sql, [value]))));
  }
  assertNoWholeReads(plans);
});

test("the console's and the admin API's reads of many rows use an index", async () => {
  const user = await usersRepo.findLiveByPhone(database.db, seededPhone(7));
  assert.ok(user);
  const reads: Array<(db: Database) => Promise<unknown>> = [
    (db) => usersRepo.newestLive(db, 50),
    (db) => searchUsers(db, { limit: 50 }),
    (db) => searchUsers(db, { limit: 50, after: { createdAt: now, id: user.id } }),
    (db) => searchUsers(db, { limit: 50, match: { by: 'phone', value: seededPhone(7) } }),
    (db) => kycRepo.list(db, undefined, 50),
    (db) => kycRepo.list(db, 'pending', 50),
    (db) => statsRepo.webhookFailuresPerHour(db, now, 24),
    (db) => statsRepo.otpSendsPerHour(db, now, 24),
    (db) => statsRepo.eventsPerHour(db, 'user.created', now, 24),
    (db) => statsRepo.activeSessions(db, now, -1),
    (db) => sessionsRepo.activeIdsOfClient(db, SEED_CLIENT_ID),
    (db) => consentsRepo.removeAllOfClient(db, SEED_CLIENT_ID),
    (db) => ssoSessionsRepo.removeAllOfUser(db, user.id),
  ];
  for (const read of reads) assertNoWholeReads(await plansOf(read));
});
