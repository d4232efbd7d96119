import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Queryable } from '../../src/storage/db.ts';
import { authorizationCodesRepo } from '../../src/storage/repositories/authorization-codes.ts';
import { backchannelLogoutsRepo } from '../../src/storage/repositories/backchannel-logouts.ts';
import { sessionsRepo } from '../../src/storage/repositories/sessions.ts';
import { ssoSessionsRepo } from '../../src/storage/repositories/sso-sessions.ts';
import { usersRepo } from '../../src/storage/repositories/users.ts';
import { webhookDeliveriesRepo } from '../../src/storage/repositories/webhook-deliveries.ts';
import { exchangeCodes } from '../../src/storage/rules/code-exchange.ts';
import { takePinAttempt } from '../../src/storage/rules/pin-lock.ts';
import { resetPinOfPhone } from '../../src/storage/rules/pin-reset.ts';
import {
  type Rotation,
  rotateRefreshToken,
  rotateRefreshTokens,
} from '../../src/storage/rules/refresh-rotation.ts';
import { freshDatabase, type TestDatabase } from '../helpers/database.ts';
import { nodes, type PlanNode } from '../helpers/plans.ts';

// P57: a statement that reaches a row of another table through a foreign key reaches it by primary key,
// whatever plan the server has cached. A connection keeps a generic plan made while the tables were small
// until their statistics change, which without autovacuum is never; the plan for a join condition such as
// `s.revoked_at IS NULL` could then read every live row through the partial index with that predicate.

let database: TestDatabase;
before(async () => {
  database = await freshDatabase();
});
after(() => database.drop());

/** The SQL text a repository function sends first, without running it. */
async function sqlOf(call: (q: Queryable) => Promise<unknown>): Promise<string> {
  let sql = '';
  await call({
    query: async (text) => {
      sql ||= text;
      return [];
    },
    exec: async () => {},
  });
  return sql;
}

/** How many parameters a statement takes: its highest `$n`. */
const parameterCount = (sql: string) =>
  Math.max(0, ...[...sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));

/** The generic plan of `sql` on the (nearly empty) test database: the plan a connection caches early. */
async function genericPlan(sql: string): Promise<PlanNode[]> {
  const paramCount = parameterCount(sql);
  return database.db.transaction(async (tx) => {
    await tx.exec('SET LOCAL plan_cache_mode = force_generic_plan');
    await tx.exec(`PREPARE p57 AS ${sql}`);
    const nulls = Array.from({ length: paramCount }, () => 'NULL').join(', ');
    const [row] = await tx.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      `EXPLAIN (FORMAT JSON) EXECUTE p57(${nulls})`,
    );
    await tx.exec('DEALLOCATE p57');
    return nodes(row['QUERY PLAN'][0].Plan);
  });
}

/** Every read of `table` in the plan is an index scan of `index` (its primary key) with a condition. */
function assertReachedByKey(plan: PlanNode[], table: string, index = `${table}_pkey`) {
  const reads = plan.filter(
    (n) =>
      n['Node Type'] !== 'ModifyTable' &&
      (n['Relation Name'] === table || n['Index Name']?.startsWith(`${table}_`)),
  );
  assert.ok(reads.length > 0, `the plan reads ${table}`);
  for (const n of reads) {
    assert.equal(n['Index Name'], index, `${n['Node Type']} on ${table}: ${JSON.stringify(n)}`);
    assert.ok(n['Index Cond'], `${n['Node Type']} on ${table} without an index condition`);
  }
}

/** A rotation's values, for the SQL text only. */
const rotation: Rotation = {
  id: '00000000-0000-4000-8000-000000000000',
  clientId: 'c',
  dpopJkt: null,
  generation: 0,
  hash: 'h',
  nextHash: 's',
  now: new Date(),
  expiresAt: new Date(),
};

test('refresh rotation reaches the session by primary key in a generic plan', async () => {
  const sql = await sqlOf((q) => rotateRefreshToken(q, rotation));
  assertReachedByKey(await genericPlan(sql), 'sessions');
});

test('rotations written in a batch reach each session by primary key in a generic plan', async () => {
  const sql = await sqlOf((q) => rotateRefreshTokens(q, [rotation, rotation, rotation]));
  assertReachedByKey(await genericPlan(sql), 'sessions');
});

test('code exchanges written in a batch reach the code, the client and the account by key in a generic plan', async () => {
  const opening = {
    session: {
      id: rotation.id,
      user_id: rotation.id,
      client_id: 'c',
      device_name: null,
      platform: 'web',
      ip_address: null,
      scope: 'openid',
      now: new Date(),
    },
    firstToken: { hash: 'h', expires_at: new Date() },
    created: { id: rotation.id, type: 'session.created', data: {}, createdAt: new Date() },
  };
  const exchange = { hash: 'h', opening };
  const sql = await sqlOf((q) => exchangeCodes(q, [exchange, exchange, exchange]));
  const plan = await genericPlan(sql);
  assertReachedByKey(plan, 'authorization_codes');
  assertReachedByKey(plan, 'clients');
  assertReachedByKey(plan, 'users');
  const read = await sqlOf((q) => authorizationCodesRepo.findMany(q, ['a', 'b', 'c']));
  assertReachedByKey(await genericPlan(read), 'authorization_codes');
});

test('the single sign-on lookup reaches the account by primary key in a generic plan', async () => {
  const sql = await sqlOf((q) => ssoSessionsRepo.findLive(q, 'h', new Date()));
  assertReachedByKey(await genericPlan(sql), 'users');
});

const claimBounds = { limit: 50, perReceiver: 12, busy: new Map([['x', 1]]) };

test('a webhook claim reaches events and endpoints by key in a generic plan', async () => {
  const sql = await sqlOf((q) => webhookDeliveriesRepo.claimDue(q, new Date(), new Date(), claimBounds));
  const plan = await genericPlan(sql);
  assertReachedByKey(plan, 'outbox_events', 'outbox_events_id_key');
});

test("the claims seek each receiver's due rows in their per-receiver index in a generic plan", async (t) => {
  const claims: Array<[string, (q: Queryable) => Promise<unknown>, string]> = [
    [
      'webhook deliveries',
      (q) => webhookDeliveriesRepo.claimDue(q, new Date(), new Date(), claimBounds),
      'webhook_deliveries_due_by_endpoint',
    ],
    [
      'back-channel logouts',
      (q) => backchannelLogoutsRepo.claimDue(q, new Date(), new Date(), claimBounds),
      'backchannel_logouts_due_by_client',
    ],
  ];
  for (const [name, claim, index] of claims)
    await t.test(name, async () => {
      const plan = await genericPlan(await sqlOf(claim));
      const seeks = plan.filter((n) => n['Index Name'] === index && n['Index Cond']);
      assert.equal(seeks.length, 1, JSON.stringify(plan.map((n) => [n['Node Type'], n['Index Name']])));
    });
});

test('the session check of every bearer request reaches its session by primary key in a generic plan', async () => {
  const sql = await sqlOf((q) => sessionsRepo.findActive(q, 'x'));
  assertReachedByKey(await genericPlan(sql), 'sessions');
});

test('revoking a session reaches it by primary key in a generic plan', async () => {
  const sql = await sqlOf((q) => sessionsRepo.revoke(q, 'x', 'logout', new Date()));
  assertReachedByKey(await genericPlan(sql), 'sessions');
});

test('lookups of live accounts by id, phone and handle use their own index in a generic plan', async (t) => {
  const lookups: Array<[string, (q: Queryable) => Promise<unknown>, number, string]> = [
    ['by id', (q) => usersRepo.findLiveById(q, 'x'), 1, 'users_pkey'],
    ['by phone', (q) => usersRepo.findLiveByPhone(q, 'x'), 1, 'users_phone_live'],
    ['by handle', (q) => usersRepo.findLiveByHandle(q, 'x'), 1, 'users_handle_live'],
    ['handle in use', (q) => usersRepo.handleInUse(q, 'x'), 1, 'users_handle_live'],
    [
      'page by phone',
      (q) => usersRepo.liveSearchPage(q, { column: 'phone', value: 'x' }, 10),
      2,
      'users_phone_live',
    ],
    [
      'page by external id',
      (q) => usersRepo.liveSearchPage(q, { column: 'external_id', value: 'x' }, 10),
      2,
      'users_external_id',
    ],
    [
      'PIN attempt by phone (D9)',
      (q) => takePinAttempt(q, { phone: 'x' }, new Date()),
      7,
      'users_phone_live',
    ],
    ['PIN reset by phone (D10, P89)', (q) => resetPinOfPhone(q, 'x', 'h', new Date()), 3, 'users_phone_live'],
    ['PIN attempt by id (D9)', (q) => takePinAttempt(q, { id: 'x' }, new Date()), 7, 'users_pkey'],
  ];
  for (const [name, call, params, index] of lookups) {
    await t.test(name, async () => {
      const sql = await sqlOf(call);
      assert.equal(parameterCount(sql), params);
      assertReachedByKey(await genericPlan(sql), 'users', index);
    });
  }
});
