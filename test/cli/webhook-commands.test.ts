import assert from 'node:assert/strict';
import { test } from 'node:test';
import { verifyWebhook } from '../../src/domain/webhooks/signature.js';
import { startCliServer } from '../helpers/cli-server.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

const PHONE = '+14155550100';

test('`callsign webhooks` manages endpoints of the running server, which delivers by itself', async () => {
  const receiver = new WebhookReceiver();
  const url = await receiver.start();
  const {
    base,
    cli: run,
    stop,
  } = await startCliServer('webhooks-cli', {
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    TEST_PHONE_NUMBERS: `${PHONE}=000000`, // D35: a fixed code, so the test signs up over plain HTTP
  });
  const cli = (...args: string[]) => run('webhooks', ...args);
  const post = async (path: string, body: unknown) =>
    (
      await (
        await fetch(`${base}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json()
    ).data;
  try {
    const text = cli('create', '--url', url, '--event', 'user.created', '--description', 'CRM');
    assert.equal(text.code, 0, text.err);
    assert.match(text.out, /secret: whsec_\S+ {3}\(shown once: keep it now\)/);
    const secret = /secret: (whsec_\S+)/.exec(text.out)?.[1] as string;
    const id = text.out.split(/\s+/)[0];
    assert.match(cli('list').out, new RegExp(`${id}\\s+true\\s+${url}\\s+user\\.created`));

    // The server's own worker loop delivers the sign-up's event, signed with that secret.
    await post('/auth/otp/send', { phone: PHONE, purpose: 'signup' });
    const { temp_token } = await post('/auth/otp/verify', {
      phone: PHONE,
      purpose: 'signup',
      code: '000000',
    });
    await post('/auth/signup', { temp_token, pin: '482916', handle: 'cli_hooks' });
    await receiver.waitFor(1);
    const envelope = verifyWebhook(secret, receiver.received[0].headers, receiver.received[0].body);
    assert.equal(envelope.type, 'user.created');

    const deliveries = JSON.parse(cli('deliveries', id, '--json').out).data;
    assert.equal(deliveries.length, 1);
    assert.equal(deliveries[0].status, 'delivered');
    const replayed = cli('replay', deliveries[0].id);
    assert.equal(replayed.code, 0, replayed.err);
    assert.match(replayed.out, /pending/);
    await receiver.waitFor(2);
    assert.equal(JSON.parse(receiver.received[1].body).id, envelope.id);
    const detail = cli('delivery', deliveries[0].id);
    assert.match(detail.out, /attempts:\n.+204/);

    const rolled = cli('roll-secret', id, '--expires-in', '60');
    assert.equal(rolled.code, 0, rolled.err);
    assert.match(rolled.out, /the previous secret also signs until/);
    assert.match(
      cli('update', id, '--disable', '--all-events').out,
      new RegExp(`${id}\\s+false\\s+\\S+\\s+\\*`),
    );
    const bad = cli('update', id, '--url', 'ftp://nope');
    assert.equal(bad.code, 1);
    assert.match(bad.err, /invalid_request: url must use https/);
    assert.equal(cli('delete', id).code, 0);
    assert.equal(cli('list').out.trim(), 'no webhook endpoints');
    assert.match(cli('show', id).err, /not_found/);
  } finally {
    await stop();
    await receiver.close();
  }
});
