import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestApp, type TestApp, uniqueIp, uniquePhone } from '../helpers/app.ts';
import { writeConfig } from '../helpers/messaging.ts';
import { type VendorRequest, VendorServer } from '../helpers/vendor-server.ts';
import * as vendors from '../helpers/vendors.ts';

// Three providers for the same route: the first hangs, the second fails half its requests, the third works.
// 500 sends: each delivers a code after one 5 s timeout at most (a hung provider costs one, and is set aside after
// five), and no phone gets a code twice, except the ones whose message a receipt reported failed, which get
// exactly one re-send.

const TW_TOKEN = 'twilio-token-for-chaos';
const SIGNATURE = 'vonage-signature-for-chaos';
let t: TestApp;
const hanging = new VendorServer(vendors.gateway);
const flaky = new VendorServer(vendors.vonage('vk', 'vs'));
const steady = new VendorServer(vendors.twilio('AC1', TW_TOKEN));

before(async () => {
  const [hangUrl, flakyUrl, steadyUrl] = await Promise.all([hanging.start(), flaky.start(), steady.start()]);
  hanging.hang = true;
  flaky.failWith = 500;
  flaky.failHalf = true;
  const path = writeConfig({
    providers: {
      hang: { type: 'http', url: `${hangUrl}/send` },
      flaky: {
        type: 'vonage',
        api_key: 'vk',
        api_secret: 'vs',
        from: 'Callsign',
        signature_secret: SIGNATURE,
        signature_method: 'sha256',
        api_url: flakyUrl,
      },
      steady: {
        type: 'twilio',
        account_sid: 'AC1',
        auth_token: TW_TOKEN,
        from: '+15005550006',
        api_url: steadyUrl,
      },
    },
    routes: [{ countries: ['*'], sms: ['hang', 'flaky', 'steady'] }],
  });
  t = await createTestApp({
    env: { SMS_PROVIDER: '', MESSAGING_CONFIG: path, SMS_BREAKER: 'min_sends=1000000' },
  });
});
after(async () => {
  await t.close();
  await Promise.all([hanging.close(), flaky.close(), steady.close()]);
});

/** The phone a vendor's request was for, as E.164. */
const toOf = (r: VendorRequest) => {
  const to = r.form.To ?? r.form.to ?? (r.json as { to?: string } | undefined)?.to ?? '';
  return to.startsWith('+') ? to : `+${to}`;
};

test('500 sends through a hanging, a flaky and a steady provider', async () => {
  const phones = Array.from({ length: 500 }, () => uniquePhone());
  for (let i = 0; i < phones.length; i += 25) {
    await Promise.all(
      phones.slice(i, i + 25).map(async (phone) => {
        const res = await t.request('POST', '/auth/otp/send', {
          body: { phone, purpose: 'signup' },
          ip: uniqueIp(),
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
      }),
    );
  }
  // One 5 s timeout at most: no send met the hung provider twice (how long a send takes is npm run bench's).
  const hungFor = new Map<string, number>();
  for (const r of hanging.requests) hungFor.set(toOf(r), (hungFor.get(toOf(r)) ?? 0) + 1);
  assert.ok(
    [...hungFor.values()].every((n) => n === 1),
    'each send met the hung provider once at most',
  );
  assert.ok(hanging.requests.length >= 5 && hanging.requests.length <= 25, 'the hung provider was set aside');
  // Ten messages the flaky provider took are reported failed, twice each: each is re-sent once, by the next.
  const reported = flaky.taken.slice(0, 10);
  for (const req of reported) {
    const answer = flaky.answers.get(req) as { messages: Array<{ 'message-id': string }> };
    const dlr = vendors.vonageSigned(SIGNATURE, {
      messageId: answer.messages[0]['message-id'],
      status: 'failed',
    });
    for (let i = 0; i < 2; i++) {
      const res = await t.request('POST', '/hooks/messages/flaky', {
        body: new URLSearchParams(dlr).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(res.status, 200);
    }
  }
  const taken = new Map<string, number>();
  for (const r of [...flaky.taken, ...steady.taken]) taken.set(toOf(r), (taken.get(toOf(r)) ?? 0) + 1);
  const resent = new Set(reported.map(toOf));
  for (const phone of phones)
    assert.equal(
      taken.get(phone),
      resent.has(phone) ? 2 : 1,
      `${phone}: one code, two with a failure report`,
    );
});
