import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestApp, uniquePhone } from '../helpers/app.ts';
import { TEST_REDIS_URL } from '../helpers/database.ts';

test('two instances on one database (and Redis, when configured) enforce one limit', async () => {
  const a = await createTestApp();
  const b = await createTestApp({ shareWith: a });
  try {
    assert.equal(
      Boolean(a.c.redis),
      Boolean(TEST_REDIS_URL),
      'counters live in Redis exactly when it is configured',
    );
    const phone = uniquePhone();
    const send = (t: typeof a, ip: string) =>
      t.request('POST', '/auth/otp/send', { body: { phone, purpose: 'signup' }, ip });
    assert.equal((await send(a, '192.0.2.1')).status, 200);
    assert.equal((await send(b, '192.0.2.2')).status, 200);
    const third = await send(a, '192.0.2.3');
    assert.equal(third.headers['x-ratelimit-remaining'], '0');
    const fourth = await send(b, '192.0.2.4');
    assert.equal(fourth.status, 429, 'the fourth send to one phone is refused whichever instance takes it');
    assert.equal(fourth.body.error.code, 'RATE_LIMITED');
  } finally {
    await b.close();
    await a.close();
  }
});
