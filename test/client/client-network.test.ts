import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createClient, memoryStorage } from '@callsign/client';
import { uniqueHandle, uniquePhone } from '../helpers/app.ts';
import { CLIENT_PIN, type ListeningApp, listeningApp } from '../helpers/client-app.ts';
import { FakeOperator } from '../helpers/fake-operator.ts';
import { FakeVonage } from '../helpers/fake-vonage.ts';

// @callsign/client's silent verification against a real Callsign over HTTP and an operator that checks
// every request as CAMARA documents it: a phone on the operator's data network signs up with no code; one on
// Wi-Fi is sent a code instead; before the device is back, the answer is to ask again.

const PHONE_ADDRESS = '127.0.0.2';
const WIFI_ADDRESS = '127.0.0.3';

describe('@callsign/client: silent verification by the mobile network', () => {
  let s: ListeningApp;
  const redirectUris: string[] = [];
  const operator = new FakeOperator({
    clientId: 'callsign-client-test',
    redirectUris,
    jwk: async () =>
      (await (await fetch(`${s.baseUrl}/.well-known/network-verification-jwks.json`)).json()).keys[0],
  });
  before(async () => {
    const url = await operator.start();
    s = await listeningApp({
      NETWORK_VERIFICATION_PROVIDER: 'camara',
      NETWORK_VERIFICATION_CAMARA_ISSUER: url,
      NETWORK_VERIFICATION_CAMARA_API_ROOT: `${url}/number-verification/v2`,
      NETWORK_VERIFICATION_CAMARA_CLIENT_ID: 'callsign-client-test',
    });
    redirectUris.push(`${s.t.c.config.authUrl}/auth/network/callback`);
  });
  after(async () => {
    await s?.t.close();
    await operator.close();
  });

  /** The device opens the URL from `address`, and the operator sends it back to Callsign. */
  async function device(url: string, address: string) {
    const back = new URL((await FakeOperator.follow(url, address)).location ?? '');
    return s.t.request('GET', `${back.pathname}${back.search}`);
  }

  test('a phone on the operator’s data network: pending, then a temp token, and the sign-up', async () => {
    const client = createClient({ baseUrl: s.baseUrl, storage: memoryStorage() });
    const phone = uniquePhone();
    operator.phones.set(PHONE_ADDRESS, phone);
    const started = await client.auth.startNetworkVerification({ phone, purpose: 'signup' });
    assert.equal(started.method, 'network');
    if (started.method !== 'network') return;
    assert.deepEqual(await client.auth.completeNetworkVerification(started.verificationId), {
      method: 'pending',
      retryAfterSeconds: 1,
    });
    await device(started.url, PHONE_ADDRESS);
    const done = await client.auth.completeNetworkVerification(started.verificationId);
    assert.equal(done.method, 'network');
    if (done.method !== 'network') return;
    const session = await client.auth.signUp({
      tempToken: done.tempToken,
      pin: CLIENT_PIN,
      handle: uniqueHandle(),
    });
    assert.equal(session.user.phone, phone);
    assert.equal(s.t.sms.messagesTo(phone).length, 0);
  });

  test('a device on Wi-Fi: a code instead, and it verifies', async () => {
    const client = createClient({ baseUrl: s.baseUrl, storage: memoryStorage() });
    const phone = uniquePhone();
    const started = await client.auth.startNetworkVerification({ phone, purpose: 'signup' });
    if (started.method !== 'network') assert.fail(`${started.method}`);
    await device(started.url, WIFI_ADDRESS);
    const done = await client.auth.completeNetworkVerification(started.verificationId);
    assert.deepEqual(done, {
      method: 'code',
      expiresIn: 300,
      channel: 'sms',
      message: done.method === 'code' ? done.message : '',
    });
    const verified = await client.auth.verifyCode({
      phone,
      code: s.t.sms.lastCode(phone),
      purpose: 'signup',
    });
    assert.equal(typeof verified.tempToken, 'string');
  });
});

describe('@callsign/client: an app on Vonage reads the check URL’s answer itself', () => {
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const vonage = new FakeVonage({ applicationId: 'client-app', publicKey: keys.publicKey });
  let s: ListeningApp;
  before(async () => {
    const url = await vonage.start();
    s = await listeningApp({
      NETWORK_VERIFICATION_PROVIDER: 'vonage',
      NETWORK_VERIFICATION_VONAGE_APPLICATION_ID: 'client-app',
      NETWORK_VERIFICATION_VONAGE_PRIVATE_KEY: String(
        keys.privateKey.export({ type: 'pkcs8', format: 'pem' }),
      ),
      NETWORK_VERIFICATION_VONAGE_API_URL: url,
    });
  });
  after(async () => {
    await s?.t.close();
    await vonage.close();
  });

  test('the last redirect’s request id and code, passed to complete: a temp token', async () => {
    const client = createClient({ baseUrl: s.baseUrl, storage: memoryStorage() });
    const phone = uniquePhone();
    vonage.phones.set(PHONE_ADDRESS, phone);
    const started = await client.auth.startNetworkVerification({ phone, purpose: 'signup' });
    if (started.method !== 'network') assert.fail(started.method);
    // The app follows the redirects over its cellular network and reads the last one's fragment.
    const last = new URL((await FakeOperator.follow(started.url, PHONE_ADDRESS)).location ?? '');
    const fragment = new URLSearchParams(last.hash.slice(1));
    const done = await client.auth.completeNetworkVerification(started.verificationId, {
      requestId: fragment.get('request_id') ?? undefined,
      code: fragment.get('code') ?? undefined,
    });
    assert.equal(done.method, 'network', JSON.stringify(done));
    assert.equal(s.t.sms.messagesTo(phone).length, 0);
  });
});
