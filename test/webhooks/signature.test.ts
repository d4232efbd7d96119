import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import {
  signDelivery,
  verifyWebhook,
  WebhookVerificationError,
} from '../../src/domain/webhooks/signature.js';
import { freePort } from '../helpers/free-port.ts';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const body = JSON.stringify({
  id: 'evt_1',
  type: 'user.created',
  created_at: '2026-11-22T00:00:00.000Z',
  data: { user: { id: 'u' } },
});
const now = 1_795_000_000;

describe('webhook signatures (spec "Delivery format")', () => {
  test('X-Service-Signature is sha256=<hex HMAC of "timestamp.body"> keyed with the secret string', async () => {
    const h = signDelivery([secret], 'evt_1', now, body);
    const { createHmac } = await import('node:crypto');
    assert.equal(
      h['X-Service-Signature'],
      `sha256=${createHmac('sha256', secret).update(`${now}.${body}`).digest('hex')}`,
    );
    assert.equal(h['X-Service-Timestamp'], String(now));
  });

  test('the Standard Webhooks headers verify with the standardwebhooks library', () => {
    const h = signDelivery([secret], 'evt_1', Math.floor(Date.now() / 1000), body);
    const payload = new Webhook(secret).verify(body, {
      'webhook-id': h['webhook-id'],
      'webhook-timestamp': h['webhook-timestamp'],
      'webhook-signature': h['webhook-signature'],
    });
    assert.deepEqual(payload, JSON.parse(body));
  });

  test('during a secret roll both secrets sign; a receiver with either one verifies', () => {
    const next = `whsec_${randomBytes(32).toString('base64')}`;
    const h = signDelivery([next, secret], 'evt_1', Math.floor(Date.now() / 1000), body);
    for (const s of [secret, next]) {
      const hs = {
        'webhook-id': h['webhook-id'],
        'webhook-timestamp': h['webhook-timestamp'],
        'webhook-signature': h['webhook-signature'],
      };
      assert.ok(new Webhook(s).verify(body, hs));
    }
  });

  test('verifyWebhook accepts either scheme and refuses a tampered body, a wrong secret or a stale timestamp', () => {
    const h = signDelivery([secret], 'evt_1', now, body);
    assert.equal(verifyWebhook(secret, { ...h }, body, { now: now * 1000 }).type, 'user.created');
    const { 'X-Service-Signature': _, 'X-Service-Timestamp': __, ...standardOnly } = h;
    assert.equal(verifyWebhook(secret, standardOnly, Buffer.from(body), { now: now * 1000 }).id, 'evt_1');
    const lower = Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
    assert.equal(
      verifyWebhook(secret, lower, body, { now: now * 1000 }).id,
      'evt_1',
      'Node lowercases header names',
    );
    assert.throws(
      () => verifyWebhook(secret, h, body.replace('u', 'v'), { now: now * 1000 }),
      WebhookVerificationError,
    );
    assert.throws(
      () => verifyWebhook(`whsec_${randomBytes(32).toString('base64')}`, h, body, { now: now * 1000 }),
      WebhookVerificationError,
    );
    assert.throws(() => verifyWebhook(secret, h, body, { now: (now + 301) * 1000 }), /tolerance/);
    assert.equal(
      verifyWebhook(secret, h, body, { now: (now + 301) * 1000, toleranceSeconds: 600 }).id,
      'evt_1',
    );
  });

  test('during a roll verifyWebhook passes with the previous secret (X-Service) and the new one (Standard)', () => {
    const next = `whsec_${randomBytes(32).toString('base64')}`;
    const h = signDelivery([secret, next], 'evt_1', now, body);
    for (const s of [secret, next]) assert.equal(verifyWebhook(s, h, body, { now: now * 1000 }).id, 'evt_1');
    const other = `whsec_${randomBytes(32).toString('base64')}`;
    assert.throws(() => verifyWebhook(other, h, body, { now: now * 1000 }), WebhookVerificationError);
  });

  test('receivers import verifyWebhook as `callsign/webhooks` on plain Node.js, without a TypeScript loader', () => {
    const h = signDelivery([secret], 'evt_1', now, body);
    const script = `import { verifyWebhook } from 'callsign/webhooks';
      const [secret, headers, body, now] = JSON.parse(process.argv[1]);
      process.stdout.write(verifyWebhook(secret, headers, body, { now }).type);`;
    const out = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', script, JSON.stringify([secret, h, body, now * 1000])],
      { cwd: new URL('../..', import.meta.url).pathname, env: { PATH: process.env.PATH }, encoding: 'utf8' },
    );
    assert.equal(out, 'user.created');
  });
});

describe("the webhooks guide's receiver example runs outside the repository", () => {
  test('with standardwebhooks installed beside it, it verifies a delivery and refuses a forged one', async () => {
    const guide = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
    const example = /A receiver checks each request[\s\S]*?```js\n([\s\S]*?)```/.exec(guide)?.[1];
    assert.ok(example, 'the guide has the example');
    // A project of its own in a temporary directory, as a reader would make one after `npm install standardwebhooks`.
    const dir = mkdtempSync(join(tmpdir(), 'callsign-receiver-'));
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(
      new URL('../../node_modules/standardwebhooks', import.meta.url).pathname,
      join(dir, 'node_modules', 'standardwebhooks'),
    );
    writeFileSync(join(dir, 'receiver.mjs'), example);
    const port = await freePort();
    const child = spawn(process.execPath, ['receiver.mjs'], {
      cwd: dir,
      env: { PATH: process.env.PATH, PORT: String(port), CALLSIGN_WEBHOOK_SECRET: secret },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    try {
      const send = async (headers: Record<string, string>) => {
        for (let i = 0; i < 100; i++) {
          try {
            return (await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers, body })).status;
          } catch {
            await new Promise((r) => setTimeout(r, 100)); // the receiver is still starting
          }
        }
        throw new Error(`the receiver did not start: ${out}`);
      };
      const fresh = Math.floor(Date.now() / 1000);
      assert.equal(await send(signDelivery([secret], 'evt_readme', fresh, body)), 204);
      const forged = { ...signDelivery([secret], 'evt_readme', fresh, body), 'webhook-id': 'evt_other' };
      assert.equal(await send(forged), 400);
      assert.match(out, /^evt_1 user\.created/m);
    } finally {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
