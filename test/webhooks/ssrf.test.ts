import assert from 'node:assert/strict';
import diagnostics from 'node:diagnostics_channel';
import { after, before, describe, test } from 'node:test';
import { type AddressKind, addressKind } from '../../src/providers/outbound-addresses.ts';
import { type Resolver, WebhookSender } from '../../src/providers/webhook-sender.ts';
import { createTestApp, signUp, type TestApp } from '../helpers/app.ts';
import { ADMIN_TOKEN } from '../helpers/oauth.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

// One address from each range D33 and the issue name, with what it must be classified as.
const RANGES: [string, AddressKind][] = [
  ['127.0.0.1', 'private'], // loopback
  ['127.255.0.9', 'private'],
  ['10.1.2.3', 'private'], // RFC 1918
  ['172.16.0.1', 'private'],
  ['172.31.255.254', 'private'],
  ['192.168.1.1', 'private'],
  ['100.64.0.1', 'private'], // CGNAT
  ['100.127.255.254', 'private'],
  ['::1', 'private'],
  ['fd12:3456::1', 'private'], // unique local
  ['169.254.169.254', 'never'], // metadata
  ['169.254.1.1', 'never'], // link-local
  ['100.100.100.200', 'never'], // Alibaba metadata
  ['fd00:ec2::254', 'never'], // AWS metadata, IPv6
  ['fe80::1', 'never'], // link-local
  ['0.0.0.0', 'never'],
  ['::', 'never'],
  ['::ffff:127.0.0.1', 'never'], // IPv4-mapped
  ['::ffff:10.0.0.1', 'never'],
  ['::ffff:8.8.8.8', 'never'],
  ['::ffff:a9fe:a9fe', 'never'], // 169.254.169.254, mapped and written in hex
  ['64:ff9b::a9fe:a9fe', 'never'], // NAT64
  ['64:ff9b:1::a9fe:a9fe', 'never'], // local-use NAT64
  ['64:ff9b:1:ffff::1', 'never'],
  ['::a9fe:a9fe', 'never'], // IPv4-compatible: 169.254.169.254
  ['::8.8.8.8', 'never'],
  ['::10.0.0.1', 'never'],
  ['64:ff9b:2::1', 'public'], // outside both NAT64 prefixes
  ['2002:a9fe:a9fe::1', 'never'], // 6to4
  ['224.0.0.1', 'never'], // multicast
  ['255.255.255.255', 'never'],
  ['8.8.8.8', 'public'],
  ['172.32.0.1', 'public'],
  ['100.128.0.1', 'public'],
  ['2606:4700::1111', 'public'],
];

/** Every client socket the process opens while `fn` runs (node's own diagnostics channel). */
async function socketsOpenedDuring(fn: () => Promise<unknown>) {
  const opened: unknown[] = [];
  const listener = (message: unknown) => opened.push(message);
  diagnostics.subscribe('net.client.socket', listener);
  try {
    await fn();
  } finally {
    diagnostics.unsubscribe('net.client.socket', listener);
  }
  return opened.length;
}

describe('SSRF guard on webhook sends', () => {
  test('each address is classified into its range', () => {
    for (const [address, kind] of RANGES) assert.equal(addressKind(address), kind, address);
  });

  describe('default configuration: private and never ranges refused', () => {
    let t: TestApp;
    const names = new Map(
      RANGES.filter(([, k]) => k !== 'public').map(([a], i) => [`host${i}.victim.test`, a]),
    );
    const resolve: Resolver = async (host) => {
      const address = names.get(host);
      if (!address) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      return [{ address, family: address.includes(':') ? 6 : 4 }];
    };
    before(async () => {
      t = await createTestApp({
        env: { ADMIN_TOKEN },
        webhookSender: new WebhookSender({ allowPrivateNetworks: false, resolve }),
      });
    });
    after(() => t.close());

    test('endpoints whose names resolve into a refused range are never contacted', async () => {
      const endpoints: { id: string; address: string }[] = [];
      for (const [name, address] of names) {
        const res = await t.request('POST', '/admin/v1/webhook-endpoints', {
          token: ADMIN_TOKEN,
          body: { url: `https://${name}/hook`, events: ['user.created'] },
        });
        assert.equal(res.status, 201, 'a name is checked at send time, when it is resolved');
        endpoints.push({ id: res.body.id, address });
      }
      await signUp(t);
      const sockets = await socketsOpenedDuring(() => t.c.deliveries.deliverDue());
      assert.equal(sockets, 0, 'no connection was attempted');
      for (const e of endpoints) {
        const [d] = (
          await t.request('GET', `/admin/v1/webhook-endpoints/${e.id}/deliveries`, { token: ADMIN_TOKEN })
        ).body.data;
        assert.equal(d.status, 'pending', e.address);
        assert.match(d.last_error, /refused: .* blocked address \(D33\)/, e.address);
        assert.equal(d.last_status_code, null);
      }
    });

    test('a literal local-use NAT64 or IPv4-compatible address is refused when the endpoint is registered', async () => {
      for (const host of ['[64:ff9b:1::a9fe:a9fe]', '[::a9fe:a9fe]', '[::8.8.8.8]']) {
        const res = await t.request('POST', '/admin/v1/webhook-endpoints', {
          token: ADMIN_TOKEN,
          body: { url: `https://${host}/hook`, events: ['user.created'] },
        });
        assert.equal(res.status, 400, host);
        assert.match(res.body.error_description, /url must not point at/, host);
      }
    });

    test('a refused address among several answers refuses the host; http is refused outright', async () => {
      const sender = new WebhookSender({
        allowPrivateNetworks: false,
        resolve: async () => [
          { address: '93.184.216.34', family: 4 },
          { address: '10.0.0.7', family: 4 },
        ],
      });
      const opened = await socketsOpenedDuring(async () => {
        assert.match((await sender.send('https://mixed.test/h', {}, '{}')).error ?? '', /10\.0\.0\.7/);
        assert.match(
          (await sender.send('http://93.184.216.34/h', {}, '{}')).error ?? '',
          /http is allowed only/,
        );
        assert.match((await sender.send('https://[::ffff:7f00:1]/h', {}, '{}')).error ?? '', /refused/);
      });
      assert.equal(opened, 0);
      sender.close();
    });
  });

  describe('WEBHOOK_ALLOW_PRIVATE_NETWORKS=true', () => {
    test('loopback is reached, at the address that was checked; link-local and metadata stay refused', async () => {
      const receiver = new WebhookReceiver('127.0.0.2');
      await receiver.start();
      // The first answer is checked and used; a second lookup (DNS rebinding) would have said 127.0.0.3,
      // where nothing listens.
      let lookups = 0;
      const sender = new WebhookSender({
        allowPrivateNetworks: true,
        resolve: async (host) => {
          if (host === 'metadata.test') return [{ address: '169.254.169.254', family: 4 }];
          if (host === 'v6-link-local.test') return [{ address: 'fe80::1', family: 6 }];
          lookups++;
          return [{ address: lookups === 1 ? '127.0.0.2' : '127.0.0.3', family: 4 }];
        },
      });
      try {
        let ok: Awaited<ReturnType<WebhookSender['send']>> | undefined;
        const connected = await socketsOpenedDuring(async () => {
          ok = await sender.send(`http://rebind.test:${receiver.port}/h`, { 'x-test': '1' }, '{}');
        });
        assert.equal(connected, 1, 'the socket watch sees a real connection');
        assert.ok(ok);
        assert.equal(ok.error, null);
        assert.equal(ok.statusCode, 204);
        assert.equal(lookups, 1);
        assert.equal(receiver.received[0].headers.host, `rebind.test:${receiver.port}`);
        const opened = await socketsOpenedDuring(async () => {
          for (const host of ['metadata.test', 'v6-link-local.test', '169.254.169.254', '[fe80::1]'])
            assert.match((await sender.send(`http://${host}/h`, {}, '{}')).error ?? '', /refused/, host);
        });
        assert.equal(opened, 0);
      } finally {
        sender.close();
        await receiver.close();
      }
    });
  });
});
