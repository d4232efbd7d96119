import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cryptoRandom } from '../../src/providers/random.ts';
import { createTestApp, signUp } from '../helpers/app.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

// Rows written at request rate get time-ordered ids (UUID version 7), so their index inserts land at the
// index's right edge instead of on a random page of an index larger than memory.

/** The UUID's version (its 13th hex digit) and its leading 48 bits, the milliseconds it was made at. */
const versionOf = (id: string) => id.replace(/-/g, '')[12];
const millisecondsOf = (id: string) => Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16);

test('an id from the service is version 7, made at the current millisecond, with its variant bits', () => {
  const before = Date.now();
  const id = cryptoRandom.timeOrderedId();
  assert.equal(versionOf(id), '7');
  assert.match(id.replace(/-/g, '')[16], /[89ab]/);
  assert.ok(millisecondsOf(id) >= before && millisecondsOf(id) <= Date.now());
  const ids = Array.from({ length: 50 }, () => cryptoRandom.timeOrderedId());
  assert.deepEqual([...ids].sort(), ids, 'ids made one after another sort in the order they were made');
});

test('an id made by a statement (time_ordered_uuid) is version 7, made at the database clock’s millisecond', async () => {
  const t = await createTestApp();
  try {
    const [row] = await t.c.db.query<{ id: string; before: string; after: string }>(
      `SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint AS before, time_ordered_uuid()::text AS id,
              floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint AS after`,
    );
    assert.equal(versionOf(row.id), '7');
    assert.match(row.id.replace(/-/g, '')[16], /[89ab]/);
    const at = millisecondsOf(row.id);
    assert.ok(
      at >= Number(row.before) && at <= Number(row.after),
      `${at} within ${row.before}..${row.after}`,
    );
  } finally {
    await t.close();
  }
});

test('a sign-up’s code, message, session, event and webhook delivery have time-ordered ids', async () => {
  const t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
  const receiver = new WebhookReceiver();
  try {
    await t.c.webhooks.create({ url: await receiver.start() });
    await signUp(t);
    for (const table of ['otps', 'messages', 'sessions', 'outbox_events', 'webhook_deliveries']) {
      const ids = await t.c.db.query<{ id: string }>(`SELECT id::text FROM ${table}`);
      assert.ok(ids.length > 0, `a sign-up writes ${table}`);
      for (const { id } of ids) assert.equal(versionOf(id), '7', `${table}: ${id}`);
    }
    const [user] = await t.c.db.query<{ id: string }>('SELECT id::text FROM users');
    assert.equal(versionOf(user.id), '4', 'an account’s id tells nothing of when it was made');
  } finally {
    await receiver.close();
    await t.close();
  }
});
