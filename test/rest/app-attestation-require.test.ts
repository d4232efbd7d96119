import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { solveChallenge } from 'altcha-lib';
import { createTestApp, type TestApp, uniqueIp } from '../helpers/app.ts';
import { bindingOf, integrityToken, playIntegrityKeys, verdict } from '../helpers/attestation.ts';
import { FakeGoogle } from '../helpers/fake-google.ts';
import { sample } from '../helpers/metrics.ts';
import { ADMIN_TOKEN } from '../helpers/oauth.ts';

// APP_ATTESTATION=require with Play Integrity read through Google's API (a service account, against a local
// Google that checks its JWT and the decode request as Google documents them): a pumping wave of unattested
// sends from many addresses gets no code out, while the genuine app's sends go without a challenge; a browser
// still gets through by solving the challenge; and Google out of service leaves sends unattested, not refused.

const PACKAGE = 'com.duka.app';
const CERT = createHash('sha256').update('the Duka app’s signing certificate').digest('hex');
const FINGERPRINT = CERT.toUpperCase().match(/../g)?.join(':') ?? '';
/**
 * Numbers of one country no other test sends to (Fiji), so the day's counts are this file's own; each in a block
 * of 1,000 of its own, so the limit per block does not come first.
 */
let next = 0;
const fijiPhone = () => `+6797${String((next++ * 1000 + (process.pid % 1000)) % 1_000_000).padStart(6, '0')}`;

describe('APP_ATTESTATION=require, Play Integrity through Google', () => {
  let t: TestApp;
  const keys = playIntegrityKeys();
  const account = generateKeyPairSync('rsa', { modulusLength: 2048 });
  let google: FakeGoogle;
  before(async () => {
    google = new FakeGoogle(
      { clientEmail: 'callsign@duka.iam.gserviceaccount.com', publicKey: account.publicKey },
      new Map([[PACKAGE, keys]]),
    );
    const url = await google.start();
    const keyFile = join(mkdtempSync(join(tmpdir(), 'callsign-google-')), 'service-account.json');
    writeFileSync(
      keyFile,
      JSON.stringify({
        type: 'service_account',
        client_email: 'callsign@duka.iam.gserviceaccount.com',
        private_key: account.privateKey.export({ type: 'pkcs8', format: 'pem' }),
        private_key_id: 'key-1',
        token_uri: `${url}/token`,
      }),
    );
    t = await createTestApp({
      env: {
        ADMIN_TOKEN,
        APP_ATTESTATION: 'require',
        CHALLENGE_MODE: 'off',
        // A challenge a test solves at once.
        CHALLENGE_MAX_NUMBER: '1000',
        ANDROID_APPS: `${PACKAGE}:${FINGERPRINT}`,
        PLAY_INTEGRITY_SERVICE_ACCOUNT: keyFile,
        PLAY_INTEGRITY_API_URL: url,
        METRICS_TOKEN: 'metrics-token-0123456789abcdef',
      },
    });
  });
  after(async () => {
    await t?.close();
    await google?.close();
  });

  const send = (phone: string, extra: object = {}) =>
    t.request('POST', '/auth/otp/send', { body: { phone, purpose: 'signup', ...extra }, ip: uniqueIp() });

  async function attested(phone: string) {
    const { challenge } = (await t.request('GET', '/auth/attestation/challenge')).body.data;
    const payload = verdict({
      packageName: PACKAGE,
      certificateHex: CERT,
      binding: bindingOf(challenge, phone, 'signup'),
      now: t.clock.now(),
    });
    return { attestation: { platform: 'android', challenge, token: await integrityToken(keys, payload) } };
  }

  test('a pumping wave of unattested sends gets no code out; the app’s own go without a challenge', async () => {
    const wave = Array.from({ length: 30 }, () => fijiPhone());
    const refused = await Promise.all(wave.map((phone) => send(phone)));
    assert.deepEqual([...new Set(refused.map((r) => r.body.error?.code))], ['CHALLENGE_REQUIRED']);
    assert.equal(
      wave.reduce((n, phone) => n + t.sms.messagesTo(phone).length, 0),
      0,
      'no code out',
    );
    const genuine = Array.from({ length: 5 }, () => fijiPhone());
    for (const phone of genuine) {
      const sent = await send(phone, await attested(phone));
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      assert.equal(t.sms.messagesTo(phone).length, 1);
    }
    assert.deepEqual(google.problems(), []);
    const countries = await t.request('GET', '/admin/v1/sms/countries', { token: ADMIN_TOKEN });
    const fiji = countries.body.data.find((c: { country: string }) => c.country === 'FJ');
    assert.equal(fiji.last_hour.sent, 5);
    assert.equal(fiji.last_hour.attested, 5);
    assert.equal(fiji.last_hour.refused.challenge, 30);
    const metrics = await t.request('GET', '/metrics', {
      headers: { authorization: 'Bearer metrics-token-0123456789abcdef' },
    });
    const text = String(metrics.body);
    assert.equal(
      sample(text, 'callsign_otp_sends_total', { country: 'FJ', outcome: 'sent', attested: 'true' }),
      5,
    );
    assert.equal(
      sample(text, 'callsign_otp_sends_total', { country: 'FJ', outcome: 'challenged', attested: 'false' }),
      30,
    );
  });

  test('a browser solves the challenge instead', async () => {
    const phone = fijiPhone();
    const asked = await send(phone);
    const c = asked.body.error.details.challenge;
    const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
    const payload = {
      algorithm: c.algorithm,
      challenge: c.challenge,
      number: solution?.number,
      salt: c.salt,
      signature: c.signature,
    };
    const sent = await send(phone, {
      challenge_solution: Buffer.from(JSON.stringify(payload)).toString('base64'),
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
  });

  test('Google out of service: the send is unattested, so it is challenged, not refused as a fake', async () => {
    google.failCheckWith = 503;
    try {
      const phone = fijiPhone();
      const res = await send(phone, await attested(phone));
      assert.equal(res.status, 403);
      assert.equal(res.body.error.code, 'CHALLENGE_REQUIRED');
    } finally {
      google.failCheckWith = 0;
    }
  });
});
