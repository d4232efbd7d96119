import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { RateCounterStore } from '../../src/domain/rate-limiter.ts';
import { RedisRateCounterStore } from '../../src/providers/redis-rate-counter-store.ts';
import { RateHitBatches } from '../../src/storage/batches/rate-hit-batches.ts';
import { DbRateCounterStore } from '../../src/storage/db-rate-counter-store.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { TEST_REDIS_URL } from '../helpers/database.ts';

// P91: the hits on one rate-limit counter that arrive together are added to its store at once, and each is
// answered the count it would have got alone. Run on the store the suite is configured with (D29): the
// database, or Redis when TEST_REDIS_URL is set.

describe('rate-limit hits added in batches', () => {
  let t: TestApp;
  let store: RateCounterStore;
  before(async () => {
    t = await createTestApp();
    store = t.c.redis
      ? new RedisRateCounterStore(t.c.redis, t.c.config.redisKeyPrefix)
      : new DbRateCounterStore(t.c.db);
  });
  after(() => t.close());

  /** The real store, with the adds asked of it written down. */
  function recording(): { adds: Array<[string, number, number]>; store: RateCounterStore } {
    const adds: Array<[string, number, number]> = [];
    return {
      adds,
      store: {
        add(key, windowStart, windowSeconds, hits) {
          adds.push([key, windowStart.getTime(), hits]);
          return store.add(key, windowStart, windowSeconds, hits);
        },
      },
    };
  }

  const window = new Date('2026-11-24T12:00:00Z');

  test('forty hits on one counter in one turn are one add of 40, answered 1 to 40 in the order they came', async () => {
    const rec = recording();
    const batches = new RateHitBatches(rec.store);
    const key = `k:${randomUUID()}`;
    const counts = await Promise.all(Array.from({ length: 40 }, () => batches.hit(key, window, 60)));
    assert.deepEqual(rec.adds, [[key, window.getTime(), 40]]);
    assert.deepEqual(
      counts,
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    assert.equal(await batches.hit(key, window, 60), 41, 'a later turn counts on from the batch');
  });

  test('two counters, and two windows of one counter, are counted apart in one turn', async () => {
    const rec = recording();
    const batches = new RateHitBatches(rec.store);
    const [a, b] = [`a:${randomUUID()}`, `b:${randomUUID()}`];
    const next = new Date(window.getTime() + 60_000);
    const hits = [
      batches.hit(a, window, 60),
      batches.hit(b, window, 60),
      batches.hit(a, next, 60),
      batches.hit(a, window, 60),
      batches.hit(b, window, 60),
      batches.hit(a, window, 60),
    ];
    assert.deepEqual(await Promise.all(hits), [1, 1, 1, 2, 2, 3]);
    assert.deepEqual(
      rec.adds.map(([k, w, n]) => [k === a ? 'a' : 'b', w === window.getTime() ? 'now' : 'next', n]),
      [
        ['a', 'now', 3],
        ['b', 'now', 2],
        ['a', 'next', 1],
      ],
    );
  });

  test('a batch in a later window counts from nothing: the hits of the window before do not carry over', async () => {
    const batches = new RateHitBatches(store);
    const key = `windows:${randomUUID()}`;
    assert.deepEqual(await Promise.all([batches.hit(key, window, 60), batches.hit(key, window, 60)]), [1, 2]);
    const next = new Date(window.getTime() + 60_000);
    const later = await Promise.all([1, 2, 3].map(() => batches.hit(key, next, 60)));
    assert.deepEqual(later, [1, 2, 3]);
  });

  test('a late hit from the window before, sent by an instance whose clock is behind, does not restart the current count', async () => {
    const batches = new RateHitBatches(store);
    const key = `late:${randomUUID()}`;
    const next = new Date(window.getTime() + 60_000);
    assert.deepEqual(await Promise.all([1, 2, 3].map(() => batches.hit(key, next, 60))), [1, 2, 3]);
    // Redis keeps a counter per window, so the late hit is counted in its own; the database keeps one row per
    // key and counts it in the current window, which only ever makes the limit stricter (P92).
    const late = await batches.hit(key, window, 60);
    assert.equal(late, t.c.redis ? 1 : 4);
    assert.equal(await batches.hit(key, next, 60), t.c.redis ? 4 : 5, 'the current window keeps its hits');
  });

  test('two instances batching hits on one counter at once hand out each count exactly once', async () => {
    const [one, two] = [new RateHitBatches(store), new RateHitBatches(store)];
    const key = `shared:${randomUUID()}`;
    const counts = await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 ? one : two).hit(key, window, 60)),
    );
    assert.deepEqual(
      counts.sort((x, y) => x - y),
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
  });

  test('a batch the store fails fails each of its hits, counts nothing, and the next turn is counted again', async () => {
    let fail = true;
    const batches = new RateHitBatches({
      add(key, windowStart, windowSeconds, hits) {
        if (fail) return Promise.reject(new Error('store unavailable'));
        return store.add(key, windowStart, windowSeconds, hits);
      },
    });
    const key = `failing:${randomUUID()}`;
    const failed = await Promise.allSettled([batches.hit(key, window, 60), batches.hit(key, window, 60)]);
    assert.deepEqual(
      failed.map((r) => r.status === 'rejected' && (r.reason as Error).message),
      ['store unavailable', 'store unavailable'],
    );
    fail = false;
    assert.deepEqual(await Promise.all([batches.hit(key, window, 60), batches.hit(key, window, 60)]), [1, 2]);
  });

  test(
    'Redis: the batch that creates a counter sets its expiry, and later batches leave it',
    {
      skip: !TEST_REDIS_URL && 'counters are in Redis only when TEST_REDIS_URL is set',
    },
    async () => {
      const redis = t.c.redis;
      assert.ok(redis);
      const batches = new RateHitBatches(store);
      const key = `expiring:${randomUUID()}`;
      const stored = `${t.c.config.redisKeyPrefix}rl:${key}:${window.getTime()}`;
      await Promise.all([batches.hit(key, window, 60), batches.hit(key, window, 60)]);
      const ttl = await redis.ttl(stored);
      assert.ok(ttl > 60 && ttl <= 120, `the window and a minute more: ${ttl} s`);
      await redis.expire(stored, 5);
      assert.equal(await batches.hit(key, window, 60), 3);
      assert.ok((await redis.ttl(stored)) <= 5, 'a later batch does not push the expiry back');
    },
  );
});
