import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { HARD_DELETE_AFTER_SECONDS } from '../../src/domain/accounts/account-deletion.ts';
import { verifyWebhook } from '../../src/domain/webhooks/signature.js';
import { createTestApp, signUp, type TestApp } from '../helpers/app.ts';
import { documentPhoto, initiate, selfiePhoto, submitForm, validFields } from '../helpers/kyc.ts';
import { ADMIN_TOKEN } from '../helpers/oauth.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

const LIMITS = { RATE_LIMITS: 'verify_page_address=100000/60' };

async function withApp(env: Record<string, string>, fn: (t: TestApp) => Promise<void>) {
  const t = await createTestApp({ env: { ADMIN_TOKEN, ...LIMITS, ...env } });
  try {
    await fn(t);
  } finally {
    await t.close();
  }
}

const kycRow = async (t: TestApp, userId: string) =>
  (await t.c.db.query<{ kyc_status: string }>('SELECT kyc_status FROM users WHERE id = $1', [userId]))[0];

describe('KYC providers, events, purge and retention (issue 7)', () => {
  test('sandbox decides at once by the day of the birth date: 01-05 reject with each reason, other days verify', async () => {
    await withApp({ KYC_PROVIDER: 'sandbox' }, async (t) => {
      const expected: [string, string | null][] = [
        ['1990-03-01', 'document_unreadable'],
        ['1990-03-02', 'document_expired'],
        ['1990-03-03', 'data_mismatch'],
        ['1990-03-04', 'suspected_fraud'],
        ['1990-03-05', 'other'],
        ['1990-03-06', null],
        ['1990-03-28', null],
      ];
      for (const [birthday, reason] of expected) {
        const s = await signUp(t);
        const res = await submitForm(t, await initiate(t, s.access_token), validFields(birthday), [
          await documentPhoto(),
          await selfiePhoto(),
        ]);
        assert.equal(res.status, 200);
        const record = (await t.request('GET', '/kyc/status', { token: s.access_token })).body.data;
        if (reason) {
          assert.match(res.html, /could not be accepted/);
          assert.equal(record.status, 'rejected', birthday);
          const [v] = (
            await t.request('GET', '/admin/v1/kyc/verifications?status=rejected', { token: ADMIN_TOKEN })
          ).body.data.filter((x: { user_id: string }) => x.user_id === s.user.id);
          assert.equal(v.reason, reason);
          assert.equal(v.provider, 'sandbox');
        } else {
          assert.match(res.html, /Your identity is verified/);
          assert.equal(record.status, 'verified', birthday);
          assert.equal(record.level, 'full');
          assert.deepEqual(record.documents, ['passport', 'selfie']);
        }
      }
    });
  });

  test('the kyc.* events reach a real receiver with the spec payloads, signed in both schemes', async () => {
    await withApp({ KYC_PROVIDER: 'sandbox', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, async (t) => {
      const receiver = new WebhookReceiver();
      try {
        const { secret } = (
          await t.request('POST', '/admin/v1/webhook-endpoints', {
            token: ADMIN_TOKEN,
            body: { url: await receiver.start(), events: ['kyc.submitted', 'kyc.verified', 'kyc.rejected'] },
          })
        ).body;
        const ok = await signUp(t);
        await submitForm(
          t,
          await initiate(t, ok.access_token),
          { ...validFields('1985-07-20'), country: 'JP' },
          [await documentPhoto()],
        );
        const no = await signUp(t);
        await submitForm(t, await initiate(t, no.access_token), validFields('1985-07-03'), [
          await documentPhoto(),
        ]);
        await t.c.deliveries.deliverDue();

        const got = receiver.received.map((r) => {
          assert.ok(new Webhook(secret).verify(r.body, r.headers as Record<string, string>));
          return verifyWebhook(secret, r.headers, r.body, { now: t.clock.now().getTime() });
        });
        const of = (type: string, userId: string) =>
          got.find((e) => e.type === type && e.data.user_id === userId)?.data as Record<string, unknown>;
        const submitted = of('kyc.submitted', ok.user.id);
        assert.deepEqual(Object.keys(submitted).sort(), ['submitted_at', 'user_id', 'verification_id']);
        const verified = of('kyc.verified', ok.user.id);
        assert.deepEqual(verified, {
          user_id: ok.user.id,
          verification_id: submitted.verification_id,
          verified_at: verified.verified_at,
          country: 'JP',
          documents: ['passport'],
        });
        assert.ok(!Number.isNaN(Date.parse(verified.verified_at as string)));
        const rejected = of('kyc.rejected', no.user.id);
        assert.deepEqual(Object.keys(rejected).sort(), [
          'message',
          'reason',
          'rejected_at',
          'user_id',
          'verification_id',
        ]);
        assert.equal(rejected.reason, 'data_mismatch');
        assert.equal(typeof rejected.message, 'string');
        assert.equal(got.length, 4);
      } finally {
        await receiver.close();
      }
    });
  });

  test('KYC rows and photos go with the account, 30 days after its deletion', async () => {
    await withApp({}, async (t) => {
      const s = await signUp(t);
      await submitForm(t, await initiate(t, s.access_token), validFields(), [await documentPhoto()]);
      const del = await t.request('DELETE', '/users/me', {
        token: s.access_token,
        body: { pin: s.pin, confirmation: 'DELETE MY ACCOUNT' },
      });
      assert.equal(del.status, 200);
      const count = async () =>
        (
          await t.c.db.query<{ n: number }>(
            `SELECT (SELECT count(*) FROM kyc_verifications WHERE user_id = $1)::int
                  + (SELECT count(*) FROM kyc_photos p JOIN kyc_verifications v ON v.id = p.verification_id
                     WHERE v.user_id = $1)::int AS n`,
            [s.user.id],
          )
        )[0].n;
      assert.equal(await count(), 2);
      t.clock.advance(HARD_DELETE_AFTER_SECONDS + 3600);
      await t.c.worker.tick();
      assert.equal(await count(), 0);
    });
  });

  test('KYC_RETENTION_DAYS removes the photos that many days after the decision; the decision stays', async () => {
    await withApp({ KYC_RETENTION_DAYS: '7' }, async (t) => {
      const s = await signUp(t);
      await submitForm(t, await initiate(t, s.access_token), validFields(), [await documentPhoto()]);
      const [v] = (
        await t.request('GET', '/admin/v1/kyc/verifications?status=pending', { token: ADMIN_TOKEN })
      ).body.data;
      await t.request('POST', `/admin/v1/kyc/verifications/${v.id}/approve`, { token: ADMIN_TOKEN });
      const detail = async () =>
        (await t.request('GET', `/admin/v1/kyc/verifications/${v.id}`, { token: ADMIN_TOKEN })).body;
      t.clock.advance(7 * 86400 - 3600);
      await t.c.worker.tick();
      assert.equal((await detail()).photos.length, 1, 'kept until the retention ends');
      t.clock.advance(2 * 3600);
      await t.c.worker.tick();
      const after = await detail();
      assert.deepEqual(after.photos, []);
      assert.ok(after.photos_removed_at);
      assert.equal(after.status, 'verified');
      assert.equal((await kycRow(t, s.user.id)).kyc_status, 'verified');
    });
  });

  test('the sandbox provider is refused in production; KYC_RETENTION_DAYS is checked', async () => {
    const { loadConfig, ConfigError } = await import('../../src/config/config.ts');
    const prod = {
      APP_ENV: 'production',
      DATABASE_URL: 'postgres://x@127.0.0.1/x',
      SMS_PROVIDER: 'http',
      SMS_HTTP_URL: 'https://sms.example/send',
      PIN_PEPPER: Buffer.alloc(32, 1).toString('base64'),
      KEY_ENCRYPTION_KEY: Buffer.alloc(32, 2).toString('base64'),
    };
    assert.throws(
      () => loadConfig({ ...prod, KYC_PROVIDER: 'sandbox' }),
      /KYC_PROVIDER=sandbox is not allowed/,
    );
    assert.equal(loadConfig({ ...prod, KYC_PROVIDER: 'manual' }).kycProvider, 'manual');
    for (const bad of ['-1', 'seven', '1.5'])
      assert.throws(
        () => loadConfig({ KYC_RETENTION_DAYS: bad }),
        (e) => e instanceof ConfigError && /KYC_RETENTION_DAYS/.test(e.message),
      );
    assert.equal(loadConfig({ KYC_RETENTION_DAYS: '30' }).retention.kycPhotosDays, 30);
  });
});
