import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { NetworkRefusal } from '../../src/providers/network-verification/network-verifier.ts';
import { VonageSilentAuth } from '../../src/providers/network-verification/vonage.ts';
import { FakeOperator } from '../helpers/fake-operator.ts';
import { FakeVonage } from '../helpers/fake-vonage.ts';

// Vonage's silent authentication against a local Vonage that checks every request as its API document says:
// the application's JWT, the workflow, the device's visit to the check URL from a phone or from Wi-Fi, the
// answer in the redirect's fragment, one submission of the code, one verification in flight per number.

const REDIRECT = 'https://login.example.com/auth/network/callback';
const PHONE_ADDRESS = '127.0.0.2';
const WIFI_ADDRESS = '127.0.0.3';
const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = (key: typeof keys.privateKey) => String(key.export({ type: 'pkcs8', format: 'pem' }));

describe('Vonage silent authentication', () => {
  const vonage = new FakeVonage({ applicationId: 'app-1', publicKey: keys.publicKey });
  const verifier = (options: { deadlineMs?: number; privateKeyPem?: string } = {}) =>
    new VonageSilentAuth(
      {
        applicationId: 'app-1',
        privateKeyPem: options.privateKeyPem ?? pem(keys.privateKey),
        apiUrl: vonage.url,
        brand: 'Acme: {Pay}',
      },
      () => new Date(),
      options.deadlineMs,
    );
  before(() => vonage.start());
  after(() => vonage.close());

  /** The device at `address` opens the check URL; the fragment it ends with is what the page posts back. */
  async function visit(typed: string, address: string, v = verifier()) {
    const { url, pending } = await v.authorizationUrl(typed, REDIRECT, 'state-1');
    const sent = await FakeOperator.follow(url, address);
    assert.equal(sent.status, 302);
    const back = new URL(sent.location ?? '');
    assert.equal(`${back.origin}${back.pathname}`, REDIRECT);
    assert.equal(back.searchParams.get('state'), 'state-1');
    const fragment = Object.fromEntries(new URLSearchParams(back.hash.slice(1)));
    return { fragment, pending, v };
  }

  test('a phone holding the number: its code, submitted once, proves it', async () => {
    const phone = '+2348031230001';
    vonage.phones.set(PHONE_ADDRESS, phone);
    const { fragment, pending, v } = await visit(phone, PHONE_ADDRESS);
    assert.ok(fragment.request_id && fragment.code, JSON.stringify(fragment));
    assert.deepEqual(await v.finish(phone, pending, REDIRECT, fragment), { outcome: 'verified' });
    assert.deepEqual(vonage.problems(), []);
    const again = await v.finish(phone, pending, REDIRECT, fragment);
    assert.equal(again.outcome, 'error', 'a code is submitted once');
  });

  test('another number, Wi-Fi, a return naming another request: never verified', async () => {
    vonage.phones.set(PHONE_ADDRESS, '+2348031230002');
    const other = await visit('+2348031230003', PHONE_ADDRESS);
    assert.deepEqual(await other.v.finish('+2348031230003', other.pending, REDIRECT, other.fragment), {
      outcome: 'other_number',
    });
    const wifi = await visit('+2348031230004', WIFI_ADDRESS);
    const onWifi = await wifi.v.finish('+2348031230004', wifi.pending, REDIRECT, wifi.fragment);
    assert.equal(onWifi.outcome, 'unavailable');
    vonage.phones.set(PHONE_ADDRESS, '+2348031230005');
    const mine = await visit('+2348031230005', PHONE_ADDRESS);
    const forged = { ...mine.fragment, request_id: 'c11236f4-00bf-4b89-84ba-88b25df97315' };
    assert.equal((await mine.v.finish('+2348031230005', mine.pending, REDIRECT, forged)).outcome, 'error');
  });

  test('a verification already in flight for the number: the network cannot say (409)', async () => {
    const v = verifier();
    await v.authorizationUrl('+2348031230006', REDIRECT, 's1');
    await assert.rejects(v.authorizationUrl('+2348031230006', REDIRECT, 's2'), (err) => {
      assert.ok(err instanceof NetworkRefusal);
      assert.deepEqual(err.answer, { outcome: 'unavailable', detail: 'verify 409 concurrent' });
      return true;
    });
  });

  test('a key Vonage does not know is refused; a check that fails or hangs is an error in time', async () => {
    const stranger = pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
    await assert.rejects(
      verifier({ privateKeyPem: stranger }).authorizationUrl('+2348031230007', REDIRECT, 's'),
    );
    assert.deepEqual(vonage.problems().at(-1), '/v2/verify: JWT');
    vonage.phones.set(PHONE_ADDRESS, '+2348031230008');
    const failing = await visit('+2348031230008', PHONE_ADDRESS);
    vonage.failCheckWith = 500;
    try {
      const answer = await failing.v.finish('+2348031230008', failing.pending, REDIRECT, failing.fragment);
      assert.deepEqual(answer, { outcome: 'error', detail: 'check 500 internal-error' });
    } finally {
      vonage.failCheckWith = 0;
    }
    vonage.phones.set(PHONE_ADDRESS, '+2348031230009');
    const hanging = await visit('+2348031230009', PHONE_ADDRESS, verifier({ deadlineMs: 300 }));
    vonage.hangCheck = true;
    try {
      const answer = await hanging.v.finish('+2348031230009', hanging.pending, REDIRECT, hanging.fragment);
      assert.deepEqual(answer, { outcome: 'error', detail: 'timeout' });
    } finally {
      vonage.hangCheck = false;
    }
  });
});
