import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DomainError } from '../../src/domain/errors.ts';
import type { RedisCounters } from '../../src/domain/rate-counters-without-redis.ts';
import { RateCountersWithoutRedis } from '../../src/domain/rate-counters-without-redis.ts';
import type { RateCounterStore } from '../../src/domain/rate-limiter.ts';
import { ManualClock } from '../../src/providers/clock.ts';

/** Counters in memory that say where each hit went; Redis's may be stopped or made to fail. */
function stores() {
  const counts = { redis: new Map<string, number>(), database: new Map<string, number>() };
  const state = { ready: true, failing: false, redisCalls: 0 };
  const counter = (into: Map<string, number>) => async (key: string, _s: Date, _w: number, hits: number) => {
    into.set(key, (into.get(key) ?? 0) + hits);
    return into.get(key) ?? 0;
  };
  const redis: RedisCounters = {
    ready: () => state.ready,
    add: async (key, start, window, hits) => {
      state.redisCalls++;
      if (state.failing) throw new Error('Command timed out');
      return counter(counts.redis)(key, start, window, hits);
    },
  };
  const database: RateCounterStore = { add: counter(counts.database) };
  return { counts, state, redis, database };
}

const WINDOW = new Date('2026-01-01T00:00:00Z');

describe('rate counters while Redis cannot be reached', () => {
  test('Redis counts while it answers; stopped, the database counts, so the count goes on', async () => {
    const s = stores();
    const counters = new RateCountersWithoutRedis(s.redis, s.database, 'database', new ManualClock());
    assert.equal(await counters.add('otp_send_phone:+1', WINDOW, 3600, 1), 1);
    s.state.ready = false;
    assert.equal(await counters.add('otp_send_phone:+1', WINDOW, 3600, 1), 1, 'counted in the database');
    assert.equal(s.counts.database.get('otp_send_phone:+1'), 1);
    assert.equal(s.state.redisCalls, 1, 'a client that is not connected is not asked');
  });

  test('after a failed command the database counts for 5 s without asking Redis, then Redis again', async () => {
    const s = stores();
    const clock = new ManualClock();
    const counters = new RateCountersWithoutRedis(s.redis, s.database, 'database', clock);
    s.state.failing = true;
    assert.equal(await counters.add('signin_phone:+1', WINDOW, 900, 1), 1);
    assert.equal(s.state.redisCalls, 1);
    clock.advance(4.9);
    await counters.add('signin_phone:+1', WINDOW, 900, 1);
    assert.equal(s.state.redisCalls, 1, 'no wait on a Redis that just failed');
    assert.equal(s.counts.database.get('signin_phone:+1'), 2);
    s.state.failing = false;
    clock.advance(0.1);
    assert.equal(await counters.add('signin_phone:+1', WINDOW, 900, 1), 1, 'counted in Redis again');
    assert.equal(s.state.redisCalls, 2);
  });

  test('closed: code sends are refused with SERVICE_UNAVAILABLE and a wait; other limits count in the database', async () => {
    const s = stores();
    s.state.ready = false;
    const counters = new RateCountersWithoutRedis(s.redis, s.database, 'closed', new ManualClock());
    for (const key of [
      'otp_send_phone:+1',
      'otp_send_address:10.0.0.1',
      'otp_send_prefix:+1415555',
      'sms_daily:all',
    ]) {
      await assert.rejects(
        counters.add(key, WINDOW, 3600, 1),
        (err: unknown) =>
          err instanceof DomainError &&
          err.code === 'SERVICE_UNAVAILABLE' &&
          err.details.retry_after_seconds === 5,
        key,
      );
    }
    assert.equal(s.counts.database.size, 0);
    assert.equal(await counters.add('signin_phone:+1', WINDOW, 900, 1), 1);
  });

  test('never fail open: when the database cannot count either, the hit fails', async () => {
    const s = stores();
    s.state.ready = false;
    const broken: RateCounterStore = {
      add: async () => {
        throw new Error('Connection terminated');
      },
    };
    const counters = new RateCountersWithoutRedis(s.redis, broken, 'database', new ManualClock());
    await assert.rejects(counters.add('otp_send_phone:+1', WINDOW, 3600, 1), /Connection terminated/);
  });
});
