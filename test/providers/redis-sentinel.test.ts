import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { createTestApp, type TestApp, uniqueIp, uniquePhone } from '../helpers/app.ts';
import { TEST_REDIS_URL } from '../helpers/database.ts';
import { freePort } from '../helpers/free-port.ts';

// Redis found through Sentinel (Debian's redis-sentinel), which follows the master when it promotes a
// replica: REDIS_SENTINELS and REDIS_MASTER_NAME. Here one Sentinel monitors the test Redis; REDIS_URL names a
// port where nothing listens, so the counters can only be reached through the Sentinel.

const hasSentinel = spawnSync('sh', ['-c', 'command -v redis-sentinel']).status === 0;
const skip = !TEST_REDIS_URL || !hasSentinel ? 'needs TEST_REDIS_URL and redis-sentinel' : false;

describe('Redis through Sentinel', { skip }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'callsign-sentinel-'));
  const master = new URL(TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
  let sentinel: ChildProcess;
  let sentinelPort: number;
  let t: TestApp;
  before(async () => {
    sentinelPort = await freePort();
    const conf = join(dir, 'sentinel.conf');
    writeFileSync(
      conf,
      [
        `port ${sentinelPort}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor callsign ${master.hostname} ${master.port || 6379} 1`,
        'sentinel down-after-milliseconds callsign 5000',
      ].join('\n'),
    );
    sentinel = spawn('redis-sentinel', [conf], { stdio: 'ignore' });
    const asking = new Redis({
      port: sentinelPort,
      host: '127.0.0.1',
      lazyConnect: true,
      maxRetriesPerRequest: 1,
    });
    // The Sentinel answers once it is up (a start takes a few milliseconds).
    for (let i = 0; i < 100; i++) {
      const answer = await asking
        .call('SENTINEL', 'get-master-addr-by-name', 'callsign')
        .catch(() => undefined);
      if (Array.isArray(answer)) break;
    }
    asking.disconnect();
    const nowhere = await freePort();
    t = await createTestApp({
      env: {
        REDIS_URL: `redis://127.0.0.1:${nowhere}`,
        REDIS_SENTINELS: `127.0.0.1:${sentinelPort}`,
        REDIS_MASTER_NAME: 'callsign',
      },
    });
  });
  after(async () => {
    await t?.close();
    sentinel?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the rate counters live in the master the Sentinel names: the fourth code to a number is refused', async () => {
    const phone = uniquePhone();
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push(
        (await t.request('POST', '/auth/otp/send', { body: { phone, purpose: 'signup' }, ip: uniqueIp() }))
          .status,
      );
    assert.deepEqual(statuses, [200, 200, 200, 429]);
    const direct = new Redis(master.toString());
    try {
      const keys = await direct.keys(`${t.c.config.redisKeyPrefix}*`);
      assert.ok(keys.length > 0, 'the counters are in the master');
    } finally {
      direct.disconnect();
    }
    assert.equal((await t.request('GET', '/health/ready')).status, 200);
  });
});
