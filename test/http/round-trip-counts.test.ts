import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  countRedisCommand,
  countRoundTrips,
  roundTripsSoFar,
  withRoundTripCounts,
} from '../../src/observability/round-trips.ts';
import { countedDatabase } from '../../src/storage/counted-database.ts';
import { signUp, type TestApp, uniqueIp, uniquePhone } from '../helpers/app.ts';
import { freshDatabase, TEST_REDIS_URL } from '../helpers/database.ts';
import { listeningApp } from '../helpers/relying-party.ts';

// ROUND_TRIP_COUNTS: each answer says what its request asked of the database and Redis (the benchmark prints
// it per hot request). A statement is a round trip, a transaction's BEGIN and COMMIT two more; Redis commands
// sent in one tick share one write.

describe('round trips counted per request', () => {
  let t: TestApp;
  let issuer: string;
  before(async () => {
    ({ t, issuer } = await listeningApp({ ROUND_TRIP_COUNTS: 'true' }));
  });
  after(() => t.close());

  const countsOf = (header: string | null) =>
    Object.fromEntries(
      (header ?? '').split(', ').map((pair) => {
        const [name, value] = pair.split('=');
        return [name, Number(value)];
      }),
    );

  test('an answer says its request’s statements and round trips', async () => {
    const u = await signUp(t);
    const res = await fetch(`${issuer}/users/me`, { headers: { authorization: `Bearer ${u.access_token}` } });
    assert.equal(res.status, 200);
    const counts = countsOf(res.headers.get('x-round-trips'));
    assert.deepEqual(Object.keys(counts), ['statements', 'database', 'redis-commands', 'redis']);
    assert.ok(counts.statements >= 1, JSON.stringify(counts));
    assert.equal(counts.database, counts.statements, 'no transaction: a round trip a statement');
    assert.equal(counts.redis > 0, counts['redis-commands'] > 0);
  });

  test('a code’s send reads once, stores its code, records its message; its limits are one Redis round trip', async () => {
    const send = async () => {
      const res = await fetch(`${issuer}/auth/otp/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': uniqueIp() },
        body: JSON.stringify({ phone: uniquePhone(), purpose: 'signup' }),
      });
      assert.equal(res.status, 200);
      return countsOf(res.headers.get('x-round-trips'));
    };
    await send(); // what a first request caches
    const counts = await send();
    // Without Redis, each of its three limits (its address, its number, the number's block) is a statement.
    const limitStatements = TEST_REDIS_URL ? 0 : 3;
    assert.equal(counts.database, 3 + limitStatements, JSON.stringify(counts));
    assert.equal(counts.redis, TEST_REDIS_URL ? 1 : 0, JSON.stringify(counts));
  });

  test('a transaction’s BEGIN and COMMIT are round trips; a tick’s Redis commands share one', async () => {
    countRoundTrips();
    const fresh = await freshDatabase();
    const db = countedDatabase(fresh.db);
    try {
      const counts = await withRoundTripCounts(async () => {
        await db.query('SELECT 1');
        await db.transaction(async (tx) => {
          await tx.query('SELECT 1');
        });
        countRedisCommand();
        countRedisCommand();
        await new Promise((resolve) => setImmediate(resolve));
        countRedisCommand();
        return roundTripsSoFar();
      });
      assert.deepEqual(counts, {
        statements: 2,
        databaseRoundTrips: 4,
        redisCommands: 3,
        redisRoundTrips: 2,
      });
    } finally {
      await fresh.drop();
    }
  });

  test('off (the default), nothing is said', async () => {
    const plain = await listeningApp();
    try {
      const u = await signUp(plain.t);
      const res = await fetch(`${plain.issuer}/users/me`, {
        headers: { authorization: `Bearer ${u.access_token}` },
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-round-trips'), null);
    } finally {
      await plain.t.close();
    }
  });
});
