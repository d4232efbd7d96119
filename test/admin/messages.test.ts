import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestApp, type TestApp, uniqueIp, uniquePhone } from '../helpers/app.ts';

// GET /admin/v1/messages: every message sent to a phone, with its attempts and delivery, filtered by phone,
// status and provider; per provider, the last day's delivery.

const ADMIN = 'admin-token-for-message-tests-0123456789';
let t: TestApp;
before(async () => {
  t = await createTestApp({ env: { ADMIN_TOKEN: ADMIN, ENUMERATION_PROTECTION: 'true' } });
});
after(() => t.close());
const admin = (url: string) => t.request('GET', url, { token: ADMIN });

test('the latest messages, newest first, with the phone masked; one by its id', async () => {
  const first = uniquePhone();
  const second = uniquePhone();
  for (const phone of [first, second]) {
    await t.request('POST', '/auth/otp/send', { body: { phone, purpose: 'signup' }, ip: uniqueIp() });
    t.clock.advance(1);
  }
  const list = await admin('/admin/v1/messages');
  assert.equal(list.status, 200);
  const [newest] = list.body.data;
  assert.equal(newest.phone, `+1******${second.slice(-4)}`);
  assert.deepEqual(
    [newest.kind, newest.channel, newest.provider, newest.status, newest.country],
    ['code', 'sms', 'http', 'queued', 'US'],
  );
  assert.equal(newest.attempts.length, 1);
  assert.equal(newest.attempts[0].ok, true);
  assert.equal(typeof newest.latency_ms, 'number');
  const one = await admin(`/admin/v1/messages/${newest.id}`);
  assert.deepEqual(one.body, newest);
  const byPhone = await admin(`/admin/v1/messages?phone=${encodeURIComponent(first)}`);
  assert.deepEqual(
    byPhone.body.data.map((m: { phone: string }) => m.phone),
    [`+1******${first.slice(-4)}`],
  );
  assert.deepEqual((await admin('/admin/v1/messages?status=delivered')).body.data, []);
  assert.deepEqual((await admin('/admin/v1/messages?provider=twilio')).body.data, []);
});

test('a message no provider took is recorded as failed, with each attempt', async () => {
  const phone = uniquePhone();
  t.sms.status = 500;
  try {
    await t.request('POST', '/auth/otp/send', { body: { phone, purpose: 'signup' }, ip: uniqueIp() });
  } finally {
    t.sms.status = 202;
  }
  const [m] = (await admin(`/admin/v1/messages?phone=${encodeURIComponent(phone)}`)).body.data;
  assert.equal(m.status, 'failed');
  assert.match(m.attempts[0].error, /answered 500/);
  const rates = (await admin('/admin/v1/messages/delivery')).body.data;
  assert.equal(rates[0].provider, 'http');
  assert.ok(rates[0].failed >= 1);
});

test('bad filters and unknown ids are refused in the admin format', async () => {
  assert.equal((await admin('/admin/v1/messages?status=lost')).status, 400);
  assert.equal((await admin('/admin/v1/messages?limit=1')).body.data.length, 1);
  assert.equal((await admin('/admin/v1/messages?limit=0')).status, 400);
  assert.equal((await admin('/admin/v1/messages?phone=12')).status, 400);
  assert.equal((await admin('/admin/v1/messages/not-an-id')).status, 404);
  assert.equal((await t.request('GET', '/admin/v1/messages')).status, 401);
});
