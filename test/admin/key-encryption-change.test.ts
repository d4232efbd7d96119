import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Secrets } from '../../src/config/secrets.ts';
import { encrypt } from '../../src/domain/crypto.ts';
import { PurposeKeys } from '../../src/domain/purpose-keys.ts';
import { SIGNING_ALGS } from '../../src/domain/sessions/signing-algorithms.ts';
import { verifyWebhook } from '../../src/domain/webhooks/signature.js';
import { seal, unseal } from '../../src/http/pages/page-state.ts';
import { webhookEndpointsRepo } from '../../src/storage/repositories/webhook-endpoints.ts';
import { createTestApp, signUp, type TestApp, uniqueIp, uniquePhone } from '../helpers/app.ts';
import { meanwhileUncommitted, testSecrets } from '../helpers/database.ts';
import { documentPhoto, initiate, selfiePhoto, submitForm, validFields } from '../helpers/kyc.ts';
import { ADMIN_TOKEN, adminRequest } from '../helpers/oauth.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

const env = {
  ADMIN_TOKEN,
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  VERIFY_URL: 'https://verify.callsign.test',
};
// testSecrets sealed the database's signing key: they are the old key-encryption key here.
const NEW_KEK = randomBytes(32);
const changing: Secrets = {
  pinPepper: testSecrets.pinPepper,
  keyEncryptionKey: NEW_KEK,
  keyEncryptionKeyFallback: testSecrets.keyEncryptionKey,
};
const changed: Secrets = { pinPepper: testSecrets.pinPepper, keyEncryptionKey: NEW_KEK };

describe('KEY_ENCRYPTION_KEY changes, the old one as KEY_ENCRYPTION_KEY_FALLBACK', () => {
  let old: TestApp;
  let receiver: WebhookReceiver;
  let hookUrl: string;
  before(async () => {
    old = await createTestApp({ env });
    receiver = new WebhookReceiver();
    hookUrl = await receiver.start();
  });
  after(async () => {
    await receiver.close();
    await old.close();
  });

  /** A test event sent to the endpoint by `t`, checked against the secret shown when it was created. */
  async function deliveredWith(t: TestApp, endpoint: { id: string; secret: string }) {
    assert.equal((await adminRequest(t, 'POST', `/webhook-endpoints/${endpoint.id}/test`)).status, 202);
    await t.c.deliveries.deliverDue();
    const got = receiver.received.at(-1);
    assert.ok(got);
    return verifyWebhook(endpoint.secret, got.headers, got.body, { now: t.clock.now().getTime() });
  }

  /** The KYC document photo as `t` serves it to the operator. */
  async function documentServedBy(t: TestApp, userId: string) {
    const queue = (await adminRequest(t, 'GET', '/kyc/verifications?status=pending')).body.data;
    const mine = queue.find((v: { user_id: string }) => v.user_id === userId);
    const detail = (await adminRequest(t, 'GET', `/kyc/verifications/${mine.id}`)).body;
    const doc = detail.photos.find((p: { kind: string }) => p.kind === 'document');
    return t.app.inject({ method: 'GET', url: doc.url, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  }

  test('a new key alone cannot read the signing key the old one sealed: the start fails and says what to set', async () => {
    await assert.rejects(
      createTestApp({ shareWith: old, secrets: changed, env }),
      /cannot be decrypted: KEY_ENCRYPTION_KEY is not the one it was stored with; .*KEY_ENCRYPTION_KEY_FALLBACK/,
    );
  });

  test('what the old key sealed, hashed or tagged still works; `keys reencrypt` seals it again; then the fallback can go', async () => {
    // Made by an instance with the old key.
    const endpoint = (
      await adminRequest(old, 'POST', '/webhook-endpoints', { url: hookUrl, events: ['user.deleted'] })
    ).body;
    const user = await signUp(old);
    const repeated = await signUp(old);
    const rotatedByOld = (
      await old.request('POST', '/auth/refresh', { body: { refresh_token: repeated.refresh_token } })
    ).body.data.refresh_token;
    const doc = await documentPhoto('png');
    const submitted = await submitForm(old, await initiate(old, user.access_token), validFields(), [
      doc,
      await selfiePhoto(),
    ]);
    assert.equal(submitted.status, 200);
    const phone = uniquePhone();
    const ip = uniqueIp();
    await old.request('POST', '/auth/otp/send', { body: { phone, purpose: 'signup' }, ip });
    const code = old.sms.lastCode(phone);
    const pageState = seal(old.c.pageStateKeys, { step: 'pin' }, old.clock.now());
    const kid = old.c.keys.signingKey().kid;
    const withCodes = await signUp(old);
    const recovery = await old.request('POST', '/users/me/recovery-codes', {
      token: withCodes.access_token,
      body: { pin: withCodes.pin },
    });
    assert.equal(recovery.status, 200, JSON.stringify(recovery.body));

    const changingApp = await createTestApp({ shareWith: old, secrets: changing, env });
    let refreshedByNew: string;
    try {
      // The signing key opens: the same key signs.
      assert.equal(changingApp.c.keys.signingKey().kid, kid);
      // A refresh token the old key tagged rotates.
      const refreshed = await changingApp.request('POST', '/auth/refresh', {
        body: { refresh_token: user.refresh_token },
      });
      assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
      refreshedByNew = refreshed.body.data.refresh_token;
      // D16's repeat within the grace window, of a token an old-key instance rotated: the same successor,
      // not reuse (which would end the session).
      const repeat = await changingApp.request('POST', '/auth/refresh', {
        body: { refresh_token: repeated.refresh_token },
      });
      assert.equal(repeat.status, 200, JSON.stringify(repeat.body));
      assert.equal(repeat.body.data.refresh_token, rotatedByOld);
      // A code the old key hashed verifies.
      const verified = await changingApp.request('POST', '/auth/otp/verify', {
        body: { phone, purpose: 'signup', code },
        ip,
      });
      assert.equal(verified.status, 200, JSON.stringify(verified.body));
      // An authorization page opened before the change still posts.
      assert.deepEqual(unseal(changingApp.c.pageStateKeys, pageState, changingApp.clock.now()), {
        step: 'pin',
      });
      // The webhook secret and the KYC photos open.
      assert.equal((await deliveredWith(changingApp, endpoint)).type, 'webhook.test');
      const served = await documentServedBy(changingApp, user.user.id);
      assert.equal(served.statusCode, 200);
      assert.ok(served.rawPayload.equals(doc.data));

      // Everything sealed at rest is sealed again with the new key, once.
      const first = await adminRequest(changingApp, 'POST', '/keys/reencrypt');
      assert.equal(first.status, 200);
      assert.deepEqual(first.body, {
        signing_keys: { resealed: SIGNING_ALGS.length, unreadable: 0 }, // one key of each algorithm
        webhook_secrets: { resealed: 1, unreadable: 0 },
        kyc_photos: { resealed: 2, unreadable: 0 },
        recovery_code_sets: { resealed: 1, unreadable: 0 },
        operator_client_keys: { resealed: 0, unreadable: 0 },
        ssf_push_headers: { resealed: 0, unreadable: 0 },
      });
      const second = await adminRequest(changingApp, 'POST', '/keys/reencrypt');
      assert.deepEqual(second.body, {
        signing_keys: { resealed: 0, unreadable: 0 },
        webhook_secrets: { resealed: 0, unreadable: 0 },
        kyc_photos: { resealed: 0, unreadable: 0 },
        recovery_code_sets: { resealed: 0, unreadable: 0 },
        operator_client_keys: { resealed: 0, unreadable: 0 },
        ssf_push_headers: { resealed: 0, unreadable: 0 },
      });
    } finally {
      await changingApp.close();
    }

    // The fallback gone: what is stored opens with the new key alone.
    const changedApp = await createTestApp({ shareWith: old, secrets: changed, env });
    try {
      assert.equal(changedApp.c.keys.signingKey().kid, kid);
      assert.equal((await deliveredWith(changedApp, endpoint)).type, 'webhook.test');
      const served = await documentServedBy(changedApp, user.user.id);
      assert.equal(served.statusCode, 200);
      assert.ok(served.rawPayload.equals(doc.data));
      const refreshed = await changedApp.request('POST', '/auth/refresh', {
        body: { refresh_token: refreshedByNew },
      });
      assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
      // A recovery code of a set the old key sealed, sealed again: it resets the PIN.
      const reset = await changedApp.request('POST', '/auth/pin/reset', {
        body: { phone: withCodes.phone, recovery_code: recovery.body.data.codes[0], pin: '736251' },
      });
      assert.equal(reset.status, 200, JSON.stringify(reset.body));
      // A refresh token the old key tagged, not used since: refused, which is why the fallback stays until
      // such tokens have expired (30 days).
      const stale = await signUp(old);
      const refused = await changedApp.request('POST', '/auth/refresh', {
        body: { refresh_token: stale.refresh_token },
      });
      assert.equal(refused.status, 401);
      assert.equal(refused.body.error.code, 'INVALID_REFRESH_TOKEN');
    } finally {
      await changedApp.close();
    }
  });

  test('a webhook secret rolled while `keys reencrypt` runs is kept (the row is locked while it is sealed again)', async () => {
    const endpoint = (await adminRequest(old, 'POST', '/webhook-endpoints', { url: hookUrl })).body;
    const oldKeys = PurposeKeys.derive(testSecrets.keyEncryptionKey, undefined, 'webhook-secrets');
    const changingApp = await createTestApp({ shareWith: old, secrets: changing, env });
    try {
      // An old-key instance rolls the secret; the re-encryption starts before that commits. On PostgreSQL it
      // waits for the row; PGlite has one connection, so there it runs after.
      await meanwhileUncommitted(
        old.c.db,
        async (tx) => {
          const rolled = oldKeys.seal(Buffer.from('the rolled secret'));
          await webhookEndpointsRepo.rollSecret(tx, endpoint.id, rolled, old.clock.now(), old.clock.now());
        },
        () => adminRequest(changingApp, 'POST', '/keys/reencrypt'),
        '%FOR UPDATE%',
      );
      const [row] = await old.c.db.query<{ secret_enc: string; previous_secret_enc: string }>(
        'SELECT secret_enc, previous_secret_enc FROM webhook_endpoints WHERE id = $1',
        [endpoint.id],
      );
      const newKeys = PurposeKeys.derive(NEW_KEK, undefined, 'webhook-secrets');
      assert.equal(newKeys.open(row.secret_enc).toString(), 'the rolled secret');
      assert.equal(newKeys.open(row.previous_secret_enc).toString(), endpoint.secret);
    } finally {
      await changingApp.close();
    }
  });

  test('`keys reencrypt` counts a row neither key opens and leaves it as it is', async () => {
    const endpoint = (
      await adminRequest(old, 'POST', '/webhook-endpoints', { url: hookUrl, events: ['user.deleted'] })
    ).body;
    const foreign = encrypt(randomBytes(32), Buffer.from('a secret sealed with some third key'));
    await old.c.db.query('UPDATE webhook_endpoints SET secret_enc = $2 WHERE id = $1', [
      endpoint.id,
      foreign,
    ]);
    const changingApp = await createTestApp({ shareWith: old, secrets: changing, env });
    try {
      const counts = (await adminRequest(changingApp, 'POST', '/keys/reencrypt')).body;
      assert.equal(counts.webhook_secrets.unreadable, 1);
      const [row] = await old.c.db.query<{ secret_enc: string }>(
        'SELECT secret_enc FROM webhook_endpoints WHERE id = $1',
        [endpoint.id],
      );
      assert.equal(row.secret_enc, foreign);
    } finally {
      await changingApp.close();
    }
  });
});
