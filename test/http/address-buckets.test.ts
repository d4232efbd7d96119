import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { addressBucket } from '../../src/domain/address-bucket.ts';
import { createTestApp, type TestApp, uniquePhone } from '../helpers/app.ts';

describe('per-address limits count an IPv6 client by its /64', () => {
  test('the bucket of an address', () => {
    assert.equal(addressBucket('192.0.2.1'), '192.0.2.1');
    assert.equal(addressBucket('::ffff:192.0.2.1'), '192.0.2.1', 'IPv4-mapped: the IPv4 address');
    assert.equal(addressBucket('::ffff:c000:201'), '192.0.2.1');
    assert.equal(addressBucket('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
    assert.equal(addressBucket('2001:DB8:1:2::ffff'), '2001:db8:1:2::/64');
    assert.equal(addressBucket('2001:db8::1'), addressBucket('2001:db8:0:0:ffff:ffff:ffff:ffff'));
    assert.notEqual(addressBucket('2001:db8:0:1::1'), addressBucket('2001:db8:0:2::1'));
    assert.equal(addressBucket('::1'), '0:0:0:0::/64');
    assert.equal(addressBucket('fe80::1%eth0'), 'fe80:0:0:0::/64');
    assert.equal(addressBucket('not an address'), 'not an address');
  });

  let t: TestApp;
  let proxied: TestApp;
  before(async () => {
    const env = { RATE_LIMITS: 'otp_send_address=2/3600' };
    t = await createTestApp({ env });
    proxied = await createTestApp({ env: { ...env, TRUST_PROXY: 'true' } });
  });
  after(async () => {
    await t.close();
    await proxied.close();
  });

  const send = (app: TestApp, opts: { ip?: string; forwardedFor?: string }) =>
    app.request('POST', '/auth/otp/send', {
      body: { phone: uniquePhone(), purpose: 'signup' },
      ip: opts.ip,
      headers: opts.forwardedFor ? { 'x-forwarded-for': opts.forwardedFor } : {},
    });

  test('addresses of one /64 share a count; another /64 has its own', async () => {
    assert.equal((await send(t, { ip: '2001:db8:1:2::1' })).status, 200);
    assert.equal((await send(t, { ip: '2001:db8:1:2:ffff:ffff:ffff:9' })).status, 200);
    const third = await send(t, { ip: '2001:db8:1:2::abcd' });
    assert.equal(third.status, 429);
    assert.equal(third.body.error.code, 'RATE_LIMITED');
    assert.equal((await send(t, { ip: '2001:db8:1:3::1' })).status, 200, 'the next /64');
  });

  test('an IPv4-mapped address counts as its IPv4 address', async () => {
    assert.equal((await send(t, { ip: '192.0.2.50' })).status, 200);
    assert.equal((await send(t, { ip: '::ffff:192.0.2.50' })).status, 200);
    assert.equal((await send(t, { ip: '192.0.2.50' })).status, 429);
  });

  test('behind a trusted proxy, the forwarded IPv6 address counts by its /64', async () => {
    const via = (client: string) => ({ ip: '10.0.0.1', forwardedFor: client });
    assert.equal((await send(proxied, via('2001:db8:7:7::1'))).status, 200);
    assert.equal((await send(proxied, via('2001:db8:7:7::2'))).status, 200);
    assert.equal((await send(proxied, via('2001:db8:7:7:1:2:3:4'))).status, 429);
    assert.equal((await send(proxied, via('2001:db8:7:8::1'))).status, 200);
  });

  test('TRUST_PROXY=1 or the proxy’s address: the client is the address the proxy appended, whatever it wrote', async () => {
    for (const setting of ['1', '10.0.0.0/8']) {
      const app = await createTestApp({
        env: { RATE_LIMITS: 'otp_send_address=2/3600', TRUST_PROXY: setting },
      });
      try {
        // The client wrote X-Forwarded-For: 198.18.0.7; the load balancer (10.0.0.1) appended what it saw.
        const through = (written: string, seen: string) => ({
          ip: '10.0.0.1',
          forwardedFor: `${written}, ${seen}`,
        });
        assert.equal((await send(app, through('198.18.0.7', '203.0.113.9'))).status, 200, setting);
        const counted = await app.c.db.query<{ key: string }>(
          "SELECT key FROM rate_counters WHERE key LIKE 'otp_send_address:%'",
        );
        if (!app.c.config.redisUrl)
          assert.deepEqual(
            counted.map((k) => k.key),
            ['otp_send_address:203.0.113.9'],
            `${setting}: counted by the proxy's view of the client`,
          );
        // Ten spoofed values from one address are one client: the second send is its last.
        const statuses: number[] = [];
        for (let i = 0; i < 10; i++)
          statuses.push((await send(app, through(`198.18.${i}.${i + 1}`, '203.0.113.9'))).status);
        assert.deepEqual(statuses, [200, ...Array(9).fill(429)], setting);
        assert.equal((await send(app, through('198.18.0.7', '203.0.113.10'))).status, 200, 'another client');
      } finally {
        await app.close();
      }
    }
  });

  test('over the IPv6 loopback: ::1 is counted, and stopped at the limit', async () => {
    const app = await createTestApp({ env: { RATE_LIMITS: 'otp_send_address=2/3600' } });
    try {
      await app.app.listen({ host: '::1', port: 0 });
      const { port } = app.app.server.address() as { port: number };
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`http://[::1]:${port}/auth/otp/send`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ phone: uniquePhone(), purpose: 'signup' }),
        });
        statuses.push(res.status);
      }
      assert.deepEqual(statuses, [200, 200, 429]);
      const keys = await app.c.db.query<{ key: string }>(
        "SELECT key FROM rate_counters WHERE key LIKE 'otp_send_address:%'",
      );
      if (!app.c.config.redisUrl)
        assert.deepEqual(
          keys.map((k) => k.key),
          ['otp_send_address:0:0:0:0::/64'],
        );
    } finally {
      await app.close();
    }
  });
});
