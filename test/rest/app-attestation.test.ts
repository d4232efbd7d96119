import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp, uniqueIp, uniquePhone } from '../helpers/app.ts';
import {
  bindingOf,
  integrityToken,
  type PlayKeys,
  playIntegrityKeys,
  verdict,
} from '../helpers/attestation.ts';

// Play Integrity through HTTP, with the Play Console's keys (local decoding): a send whose token the genuine
// app made on a genuine device for this very send goes without a challenge; each of the verdict's rules has a
// send that breaks it and is refused with its reason; and one without an attestation is challenged as before.

const PACKAGE = 'com.duka.app';
const CERT = createHash('sha256').update('the Duka app’s signing certificate').digest('hex');
const FINGERPRINT = CERT.toUpperCase().match(/../g)?.join(':') ?? '';

describe('app attestation: Play Integrity, decoded locally', () => {
  let t: TestApp;
  const keys: PlayKeys = playIntegrityKeys();
  before(async () => {
    t = await createTestApp({
      env: {
        APP_ATTESTATION: 'prefer',
        CHALLENGE_MODE: 'always',
        ANDROID_APPS: `${PACKAGE}:${FINGERPRINT}`,
        PLAY_INTEGRITY_DECRYPTION_KEY: keys.decryptionKey,
        PLAY_INTEGRITY_VERIFICATION_KEY: keys.verificationKey,
      },
    });
  });
  after(() => t.close());

  const challenge = async () => (await t.request('GET', '/auth/attestation/challenge')).body.data;
  const send = (phone: string, attestation?: object) =>
    t.request('POST', '/auth/otp/send', { body: { phone, purpose: 'signup', attestation }, ip: uniqueIp() });

  /** An attestation for a send to `phone`, its verdict changed as `change` says. */
  async function attestation(
    phone: string,
    change: Partial<Parameters<typeof verdict>[0]> & {
      timestampShift?: number;
      tokenOf?: string;
      challenge?: string;
    } = {},
  ) {
    const c = change.challenge ?? ((await challenge()).challenge as string);
    const now = new Date(t.clock.now().getTime() + (change.timestampShift ?? 0));
    const payload = verdict({
      packageName: PACKAGE,
      certificateHex: CERT,
      binding: bindingOf(c, phone, 'signup'),
      now,
      ...change,
    });
    return {
      platform: 'android',
      challenge: c,
      token: change.tokenOf ?? (await integrityToken(keys, payload)),
    };
  }

  const refusedWith = async (
    answer: Promise<{ status: number; body: { error?: { code: string; details: { reason?: string } } } }>,
    reason: string,
  ) => {
    const res = await answer;
    assert.equal(res.status, 403, JSON.stringify(res.body));
    assert.equal(res.body.error?.code, 'CHALLENGE_FAILED');
    assert.equal(res.body.error?.details.reason, reason);
  };

  test('a challenge lives 120 seconds', async () => {
    const c = await challenge();
    assert.equal(c.expires_in, 120);
    assert.match(c.challenge, /^[\w-]+\.\d+\.[\w-]+$/);
  });

  test('the genuine app on a genuine device: a code with no challenge; the same attestation again is replayed', async () => {
    const phone = uniquePhone();
    const attested = await attestation(phone);
    const sent = await send(phone, attested);
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(t.sms.messagesTo(phone).length, 1);
    await refusedWith(send(phone, attested), 'replayed');
  });

  test('/auth/network/start takes the attestation too: with no check to try, its code goes unchallenged', async () => {
    const phone = uniquePhone();
    const started = await t.request('POST', '/auth/network/start', {
      body: { phone, purpose: 'signup', attestation: await attestation(phone) },
      ip: uniqueIp(),
    });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    assert.equal(started.body.data.method, 'code');
    assert.equal(t.sms.messagesTo(phone).length, 1);
  });

  test('a classic request’s nonce, with or without its padding', async () => {
    for (const classic of ['padded', 'unpadded'] as const) {
      const phone = uniquePhone();
      const sent = await send(phone, await attestation(phone, { classic }));
      assert.equal(sent.status, 200, `${classic}: ${JSON.stringify(sent.body)}`);
    }
  });

  test('each rule of the verdict, broken, is refused with its reason and sends nothing', async () => {
    const other = createHash('sha256').update('another certificate').digest('hex');
    const cases: Array<[string, (phone: string) => Parameters<typeof attestation>[1]]> = [
      ['app_not_recognized', () => ({ packageName: 'com.other.app' })],
      ['app_not_recognized', () => ({ appVerdict: 'UNRECOGNIZED_VERSION' })],
      ['app_not_recognized', () => ({ certificateHex: other })],
      ['app_not_recognized', () => ({ tokenOf: 'not.a.token.at.all' })],
      ['device_integrity', () => ({ device: ['MEETS_BASIC_INTEGRITY'] })],
      ['wrong_binding', (phone) => ({ binding: bindingOf('another-challenge', phone, 'signup') })],
      ['wrong_binding', (phone) => ({ binding: bindingOf('x', phone, 'pin_reset') })],
      ['stale', () => ({ timestampShift: -121_000 })],
    ];
    for (const [reason, change] of cases) {
      const phone = uniquePhone();
      await refusedWith(send(phone, await attestation(phone, change(phone))), reason);
      assert.equal(t.sms.messagesTo(phone).length, 0, reason);
    }
    const phone = uniquePhone();
    // A challenge this service did not sign, and one of its own past its 120 seconds.
    await refusedWith(
      send(phone, await attestation(phone, { challenge: 'forged.9999999999.signature' })),
      'stale',
    );
    const late = await attestation(uniquePhone());
    t.clock.advance(121);
    await refusedWith(send(phone, await attestation(phone, { challenge: late.challenge })), 'stale');
  });

  test('a send without an attestation is challenged as before', async () => {
    const res = await send(uniquePhone());
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'CHALLENGE_REQUIRED');
  });
});
