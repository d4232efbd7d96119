import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TwilioSilentNetworkAuth } from '../../src/providers/network-verification/twilio.ts';
import { FakeOperator } from '../helpers/fake-operator.ts';
import { FakeTwilioVerify } from '../helpers/fake-twilio-verify.ts';

// Twilio Verify's Silent Network Auth against a local Twilio that checks every request as Twilio documents
// it: Basic auth, `To` and `Channel=sna`, the device's visit to `sna.url` from a phone or from Wi-Fi (it ends on
// Twilio's page), and the Verification Check: approved, another number, not yet, not on mobile data.

const PHONE_ADDRESS = '127.0.0.2';
const WIFI_ADDRESS = '127.0.0.3';
const ACCOUNT = { accountSid: 'AC0123', authToken: 'auth-token-1', serviceSid: 'VA0123' };

describe('Twilio Silent Network Auth', () => {
  const twilio = new FakeTwilioVerify(ACCOUNT);
  const verifier = (options: { deadlineMs?: number; authToken?: string } = {}) =>
    new TwilioSilentNetworkAuth(
      { ...ACCOUNT, apiUrl: twilio.url, authToken: options.authToken ?? ACCOUNT.authToken },
      options.deadlineMs,
    );
  before(() => twilio.start());
  after(() => twilio.close());

  /** The device at `address` opens sna.url; it stays on Twilio's page. */
  async function visit(phone: string, address?: string, v = verifier()) {
    const { url, pending } = await v.authorizationUrl(phone);
    if (address) assert.equal((await FakeOperator.follow(url, address)).status, 200);
    return { pending, v };
  }

  test('a phone holding the number: approved at the check; before its visit, not yet', async () => {
    const phone = '+2348031240001';
    twilio.phones.set(PHONE_ADDRESS, phone);
    const { url } = await verifier().authorizationUrl(phone);
    assert.deepEqual(await verifier().finish(phone), { outcome: 'not_yet' });
    await FakeOperator.follow(url, PHONE_ADDRESS);
    assert.deepEqual(await verifier().finish(phone), { outcome: 'verified' });
    assert.deepEqual(twilio.problems(), []);
    const again = await verifier().finish(phone);
    assert.deepEqual(again, { outcome: 'error', detail: 'check 404 20404' }, 'approved once');
  });

  test('another number, Wi-Fi: never verified', async () => {
    twilio.phones.set(PHONE_ADDRESS, '+2348031240002');
    const other = await visit('+2348031240003', PHONE_ADDRESS);
    assert.deepEqual(await other.v.finish('+2348031240003'), { outcome: 'other_number' });
    const wifi = await visit('+2348031240004', WIFI_ADDRESS);
    assert.deepEqual(await wifi.v.finish('+2348031240004'), {
      outcome: 'unavailable',
      detail: 'pending 60510',
    });
  });

  test('wrong credentials are refused at the start; a check that fails or hangs is an error in time', async () => {
    await assert.rejects(verifier({ authToken: 'wrong' }).authorizationUrl('+2348031240005'));
    assert.equal(twilio.problems().at(-1), '/v2/Services/VA0123/Verifications: Basic auth');
    await visit('+2348031240006', PHONE_ADDRESS);
    twilio.failCheckWith = 503;
    try {
      assert.deepEqual(await verifier().finish('+2348031240006'), {
        outcome: 'error',
        detail: 'check 503 20500',
      });
    } finally {
      twilio.failCheckWith = 0;
    }
    twilio.hangCheck = true;
    try {
      assert.deepEqual(await verifier({ deadlineMs: 300 }).finish('+2348031240006'), {
        outcome: 'error',
        detail: 'timeout',
      });
    } finally {
      twilio.hangCheck = false;
    }
  });
});
