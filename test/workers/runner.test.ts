import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jobsRepo } from '../../src/storage/repositories/jobs.ts';
import { createTestApp } from '../helpers/app.ts';

test('two instances ticking at once run each due job once; the next run waits its interval', async () => {
  const a = await createTestApp();
  const b = await createTestApp({ shareWith: a });
  try {
    const [ranA, ranB] = await Promise.all([a.c.worker.tick(), b.c.worker.tick()]);
    assert.deepEqual([...ranA, ...ranB].sort(), ['housekeeping', 'purge-deleted-accounts']);
    assert.deepEqual([...(await a.c.worker.tick()), ...(await b.c.worker.tick())], [], 'not due again yet');
    a.clock.advance(3600);
    const again = await Promise.all([a.c.worker.tick(), b.c.worker.tick()]);
    assert.equal(again.flat().length, 2);
    const runs = await a.c.db.query<{ runs: number }>('SELECT runs FROM jobs ORDER BY name');
    assert.deepEqual(
      runs.map((r) => Number(r.runs)),
      [2, 2],
    );
  } finally {
    await b.close();
    await a.close();
  }
});

test('race: 10 claims of one due run at once: exactly one wins', async () => {
  const t = await createTestApp();
  try {
    const now = t.clock.now();
    const wins = await Promise.all(
      Array.from({ length: 10 }, () => jobsRepo.claim(t.c.db, 'x', now, new Date(now.getTime() + 60_000))),
    );
    assert.equal(wins.filter(Boolean).length, 1);
  } finally {
    await t.close();
  }
});

test('housekeeping removes codes and tokens a day past their end, and stale rate windows', async () => {
  const t = await createTestApp();
  try {
    await t.request('POST', '/auth/otp/send', { body: { phone: '+16502345678', purpose: 'signup' } });
    await t.c.worker.tick();
    assert.equal((await t.c.db.query('SELECT 1 FROM otps')).length, 1, 'a live code stays');
    t.clock.advance(2 * 86400);
    await t.c.worker.tick();
    assert.equal((await t.c.db.query('SELECT 1 FROM otps')).length, 0);
    assert.equal((await t.c.db.query('SELECT 1 FROM rate_counters')).length, 0);
  } finally {
    await t.close();
  }
});
