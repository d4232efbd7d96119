import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, test } from 'node:test';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { createTestApp, type TestApp, uniqueIp } from '../helpers/app.ts';

// An SMS pumping attack, simulated with the defaults: 1,000 send attempts to Nigerian mobile numbers, half
// of them random and half one range of consecutive numbers, each from an address of its own, none entered;
// beside them 100 honest users in India and Brazil who enter their codes. At most `min_sends` (50) codes
// reach the attacked country without a solved challenge, at most 10 any block of 1,000 numbers, and every
// honest user gets a code and uses it without ever being asked for a challenge.

let t: TestApp;
before(async () => {
  t = await createTestApp();
});
after(() => t.close());

/** A random valid mobile number of the country, from a local pattern of its mobile ranges. */
function mobile(country: 'NG' | 'IN' | 'BR'): string {
  for (;;) {
    const digits = (n: number) => String(randomInt(10 ** (n - 1), 10 ** n));
    const candidate =
      country === 'NG' ? `+23480${digits(8)}` : country === 'IN' ? `+919${digits(9)}` : `+55119${digits(8)}`;
    const number = parsePhoneNumberFromString(candidate);
    if (number?.isValid() && number.getType() === 'MOBILE' && number.country === country)
      return number.number;
  }
}

const send = (phone: string) =>
  t.request('POST', '/auth/otp/send', { body: { phone, purpose: 'signup' }, ip: uniqueIp() });

test('a pumping botnet gets at most min_sends codes to its country; honest users are not slowed', async () => {
  const random = Array.from({ length: 500 }, () => mobile('NG'));
  const range = Array.from({ length: 500 }, (_, i) => `+2348031234${String(i).padStart(3, '0')}`);
  const honest = Array.from({ length: 100 }, (_, i) => mobile(i % 2 ? 'IN' : 'BR'));

  const statuses = new Map<number, number>();
  const attack = [...random, ...range].sort(() => Math.random() - 0.5);
  for (let i = 0; i < attack.length; i++) {
    const res = await send(attack[i]);
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    // Honest users come and go in between, and each enters the code it got.
    if (i % 10 === 0) {
      const phone = honest[i / 10];
      const sent = await send(phone);
      assert.equal(sent.status, 200, `honest user ${i / 10}: ${JSON.stringify(sent.body)}`);
      const code = t.sms.lastCode(phone);
      const verified = await t.request('POST', '/auth/otp/verify', {
        body: { phone, code, purpose: 'signup' },
      });
      assert.equal(verified.status, 200);
    }
  }

  const toNigeria = [...random, ...range].filter((phone) => t.sms.messagesTo(phone).length > 0);
  assert.ok(toNigeria.length <= 50, `${toNigeria.length} codes reached the attacked country`);
  const inRange = range.filter((phone) => t.sms.messagesTo(phone).length > 0);
  assert.ok(inRange.length <= 10, `${inRange.length} codes reached the range`);
  const refused = (statuses.get(403) ?? 0) + (statuses.get(429) ?? 0);
  assert.equal(refused + (statuses.get(200) ?? 0), 1000, JSON.stringify([...statuses]));
  assert.ok(refused >= 950, `refused with a challenge or a limit: ${JSON.stringify([...statuses])}`);
  const breaker = (await t.c.smsBreaker.countries()).find((c) => c.country === 'NG');
  assert.equal(breaker?.breaker, 'open');
});
