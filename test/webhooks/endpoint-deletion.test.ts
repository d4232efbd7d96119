import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { WebhookSender } from '../../src/providers/webhook-sender.ts';
import { CLAIM_LEASE_SECONDS } from '../../src/workers/claimed-sends.ts';
import { WebhookDeliveryWorker } from '../../src/workers/webhook-delivery.ts';
import { createTestApp, signUp, type TestApp } from '../helpers/app.ts';
import { ADMIN_TOKEN } from '../helpers/oauth.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

describe('deleting a webhook endpoint mid-delivery harms no other endpoint', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
  });
  after(() => t.close());

  const admin = (method: string, url: string, body?: unknown) =>
    t.request(method, `/admin/v1${url}`, { token: ADMIN_TOKEN, body });

  /** A receiver that holds every request until `release` answers them all at once. */
  const heldReceiver = () => {
    const receiver = new WebhookReceiver();
    const held: ServerResponse[] = [];
    receiver.respond = (_req, res) => {
      held.push(res);
      return undefined;
    };
    return { receiver, release: () => held.splice(0).map((res) => res.writeHead(204).end()) };
  };

  test("an attempt whose endpoint is gone is dropped; the others' results in the same batch are kept", async () => {
    const doomed = heldReceiver();
    const kept = heldReceiver();
    const a = (
      await admin('POST', '/webhook-endpoints', {
        url: await doomed.receiver.start(),
        events: ['user.created'],
      })
    ).body;
    const b = (
      await admin('POST', '/webhook-endpoints', {
        url: await kept.receiver.start(),
        events: ['user.created'],
      })
    ).body;
    const worker = new WebhookDeliveryWorker({
      db: t.c.db,
      clock: t.c.clock,
      logger: t.c.logger,
      sender: new WebhookSender({ allowPrivateNetworks: true }),
      signingSecrets: (e) => t.c.webhooks.signingSecrets(e),
      pollMs: 3_600_000,
    });
    try {
      for (let i = 0; i < 4; i++) await signUp(t);
      const sending = worker.deliverDue();
      await Promise.all([doomed.receiver.waitFor(4), kept.receiver.waitFor(4)]);
      assert.equal((await admin('DELETE', `/webhook-endpoints/${a.id}`)).status, 204);
      // Both endpoints answer together: their results are written in one batch.
      doomed.release();
      kept.release();
      assert.equal(await sending, 8);
      assert.ok(!t.logs.some((l) => l.includes('recording a webhook attempt failed')), 'nothing failed');

      const rows = await t.c.db.query<{ status: string; attempts: number }>(
        'SELECT status, attempts FROM webhook_deliveries WHERE endpoint_id = $1',
        [b.id],
      );
      assert.deepEqual(
        rows.map((r) => r.status),
        ['delivered', 'delivered', 'delivered', 'delivered'],
      );
      // Past every claim's lease, nothing is due: no delivered event goes out again.
      t.clock.advance(CLAIM_LEASE_SECONDS + 60);
      assert.equal(await worker.deliverDue(), 0);
      assert.equal(kept.receiver.received.length, 4);
    } finally {
      await worker.stop();
      await doomed.receiver.close();
      await kept.receiver.close();
    }
  });
});
