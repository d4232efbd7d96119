import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { exportJWK } from 'jose';
import { CamaraNumberVerification } from '../../src/providers/network-verification/camara.ts';
import { FakeOperator } from '../helpers/fake-operator.ts';

// CAMARA Number Verification against an operator that checks every request as CAMARA documents it: the front
// channel (a device sent to the operator over its mobile data, or over Wi-Fi), the back channel (an operator
// token), the hashed number, and what an operator in trouble is.

const CLIENT_ID = 'callsign-test';
const REDIRECT = 'https://login.example.com/auth/network/callback';
/** The device on the operator's data network, and one on Wi-Fi (any other loopback address). */
const PHONE_ADDRESS = '127.0.0.2';
const WIFI_ADDRESS = '127.0.0.3';
const HELD = '+2348031234567';

const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const key = { kid: 'callsign-network-1', privateKey: keys.privateKey };

describe('CAMARA Number Verification', () => {
  const operator = new FakeOperator({
    clientId: CLIENT_ID,
    redirectUris: [REDIRECT],
    jwk: async () => ({ ...(await exportJWK(keys.publicKey)), kid: key.kid }),
  });
  const verifier = (options: { hashed?: boolean; deadlineMs?: number; signWith?: typeof key } = {}) =>
    new CamaraNumberVerification(
      {
        issuer: operator.url,
        apiRoot: `${operator.url}/number-verification/v2`,
        clientId: CLIENT_ID,
        hashed: options.hashed ?? false,
      },
      options.signWith ?? key,
      () => new Date(),
      options.deadlineMs,
    );
  before(async () => {
    await operator.start();
    operator.phones.set(PHONE_ADDRESS, HELD);
  });
  after(() => operator.close());

  /** The whole front channel: the URL made, the device sent there from `address`, the callback finished. */
  async function frontChannel(typed: string, address: string, v = verifier()) {
    const state = 'state-123';
    const { url, pending } = await v.authorizationUrl(typed, REDIRECT, state);
    const sent = await FakeOperator.follow(url, address);
    assert.equal(sent.status, 302);
    const back = new URL(sent.location ?? '');
    assert.equal(`${back.origin}${back.pathname}`, REDIRECT);
    assert.equal(back.searchParams.get('state'), state);
    const callback = Object.fromEntries(back.searchParams);
    return { answer: await v.finish(typed, pending, REDIRECT, callback), callback, pending, v };
  }

  const problems = () => operator.seen.filter((s) => s.problem).map((s) => `${s.path}: ${s.problem}`);

  test('a phone on the operator’s data network holding the number: verified, every request as CAMARA has it', async () => {
    const before = operator.seen.length;
    const { answer } = await frontChannel(HELD, PHONE_ADDRESS);
    assert.deepEqual(answer, { outcome: 'verified' });
    assert.deepEqual(problems(), []);
    const verify = operator.seen.slice(before).find((s) => s.path.endsWith('/verify'));
    assert.match(verify?.correlator ?? '', /^[0-9a-f-]{36}$/);
  });

  test('a phone holding another number: other_number', async () => {
    const { answer } = await frontChannel('+2348039999999', PHONE_ADDRESS);
    assert.deepEqual(answer, { outcome: 'other_number' });
  });

  test('a device on Wi-Fi comes back with login_required: the network cannot say', async () => {
    const { answer, callback } = await frontChannel(HELD, WIFI_ADDRESS);
    assert.equal(callback.error, 'login_required');
    assert.deepEqual(answer, { outcome: 'unavailable', detail: 'login_required' });
  });

  test('the hashed number, where the operator is told so', async () => {
    const { answer } = await frontChannel(HELD, PHONE_ADDRESS, verifier({ hashed: true }));
    assert.deepEqual(answer, { outcome: 'verified' });
    assert.deepEqual(problems(), []);
  });

  test('a code is exchanged once: the second time the network cannot say', async () => {
    const first = await frontChannel(HELD, PHONE_ADDRESS);
    assert.equal(first.answer.outcome, 'verified');
    const again = await first.v.finish(HELD, first.pending, REDIRECT, first.callback);
    assert.deepEqual(again, { outcome: 'unavailable', detail: 'token 400 invalid_grant' });
  });

  test('a key the operator does not know is refused as a client: error', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const { answer } = await frontChannel(
      HELD,
      PHONE_ADDRESS,
      verifier({ signWith: { kid: 'not-registered', privateKey: other.privateKey } }),
    );
    assert.deepEqual(answer, { outcome: 'error', detail: 'token 401 invalid_client' });
  });

  test('an operator that fails or hangs at /verify: error, within the check’s deadline', async () => {
    operator.failVerifyWith = 503;
    try {
      const { answer } = await frontChannel(HELD, PHONE_ADDRESS);
      assert.deepEqual(answer, { outcome: 'error', detail: 'verify 503 UNAVAILABLE' });
    } finally {
      operator.failVerifyWith = 0;
    }
    operator.hangVerify = true;
    try {
      const { answer } = await frontChannel(HELD, PHONE_ADDRESS, verifier({ deadlineMs: 500 }));
      assert.deepEqual(answer, { outcome: 'error', detail: 'timeout' });
    } finally {
      operator.hangVerify = false;
    }
  });

  test('an app’s operator token by the JWT bearer grant: verified; one the operator does not know: unavailable', async () => {
    operator.seen.length = 0;
    operator.operatorTokens.set('ts43-token-abc', HELD);
    assert.deepEqual(await verifier().verifyOperatorToken(HELD, 'ts43-token-abc'), { outcome: 'verified' });
    assert.deepEqual(await verifier().verifyOperatorToken('+2348039999999', 'ts43-token-abc'), {
      outcome: 'other_number',
    });
    assert.deepEqual(await verifier().verifyOperatorToken(HELD, 'unknown'), {
      outcome: 'unavailable',
      detail: 'token 400 invalid_grant',
    });
    assert.deepEqual(problems(), ['/token: operator token']);
  });
});
