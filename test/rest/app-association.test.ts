import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config/config.ts';
import { createTestApp, signUp, type TestApp, uniqueIp } from '../helpers/app.ts';
import { SoftAuthenticator } from '../helpers/authenticator.ts';
import { problemsOf } from '../helpers/config-problems.ts';

// The native-app kit's files, as Google's Digital Asset Links and Apple's app-site association documents
// give them: served at their paths as JSON, never redirected, one entry per configured app; the apps' settings
// checked at start; and a passkey made in an Android app (its `android:apk-key-hash:` origin, added by itself)
// signing in on the web.

const WEB = 'http://callsign.test';
/** A signing certificate's SHA-256, as Play Console shows it. */
const CERT = createHash('sha256').update('the app’s signing certificate').digest('hex');
const FINGERPRINT = CERT.toUpperCase().match(/../g)?.join(':') ?? '';
const APP_ORIGIN = `android:apk-key-hash:${Buffer.from(CERT, 'hex').toString('base64url')}`;

describe('the native apps’ files', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({
      env: {
        ANDROID_APPS: `com.duka.app:${FINGERPRINT}:AbCdEfGhIj1`,
        IOS_APPS: 'ABCDE12345.com.duka.app',
      },
    });
  });
  after(() => t.close());

  test('assetlinks.json: each Android app, its certificate, the passkey and link relations', async () => {
    const res = await t.request('GET', '/.well-known/assetlinks.json');
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.deepEqual(res.body, [
      {
        relation: [
          'delegate_permission/common.get_login_creds',
          'delegate_permission/common.handle_all_urls',
        ],
        target: {
          namespace: 'android_app',
          package_name: 'com.duka.app',
          sha256_cert_fingerprints: [FINGERPRINT],
        },
      },
    ]);
    assert.match(res.body[0].target.sha256_cert_fingerprints[0], /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  });

  test('apple-app-site-association: webcredentials and applinks, as JSON at its path without an extension', async () => {
    const res = await t.request('GET', '/.well-known/apple-app-site-association');
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.equal(res.headers.location, undefined, 'never redirected');
    assert.deepEqual(res.body, {
      applinks: {
        details: [{ appIDs: ['ABCDE12345.com.duka.app'], components: [{ '/': '/auth/network/callback' }] }],
      },
      webcredentials: { apps: ['ABCDE12345.com.duka.app'] },
    });
  });

  test('a passkey made in the Android app signs in on the web, and one from another app is refused', async () => {
    assert.ok(t.c.config.webauthn.origins.includes(APP_ORIGIN), 'the app’s origin, added by itself');
    const s = await signUp(t);
    const key = new SoftAuthenticator(APP_ORIGIN);
    const opts = await t.request('POST', '/passkeys/registration/options', {
      token: s.access_token,
      body: {},
    });
    const made = await t.request('POST', '/passkeys/registration', {
      token: s.access_token,
      body: { response: key.create(opts.body.data), name: 'Duka app' },
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const signIn = async (origin: string) => {
      const asked = await t.request('POST', '/auth/passkey/options', { body: {}, ip: uniqueIp() });
      return t.request('POST', '/auth/passkey/verify', {
        body: { response: key.get(asked.body.data, { origin }), device: { platform: 'web' } },
        ip: uniqueIp(),
      });
    };
    const onTheWeb = await signIn(WEB);
    assert.equal(onTheWeb.status, 200, JSON.stringify(onTheWeb.body));
    assert.equal(onTheWeb.body.data.user.id, s.user.id);
    const stranger = `android:apk-key-hash:${createHash('sha256').update('another app').digest('base64url')}`;
    assert.equal((await signIn(stranger)).status, 401);
  });
});

describe('the native apps’ files without apps, and the apps’ settings', () => {
  test('no apps: neither file', async () => {
    const t = await createTestApp();
    try {
      assert.equal((await t.request('GET', '/.well-known/assetlinks.json')).status, 404);
      assert.equal((await t.request('GET', '/.well-known/apple-app-site-association')).status, 404);
    } finally {
      await t.close();
    }
  });

  test('ANDROID_APPS and IOS_APPS are checked at start, each problem named', () => {
    const { androidApps, iosApps } = loadConfig({
      ANDROID_APPS: `com.a.app:${FINGERPRINT.toLowerCase()}, com.b.app:${FINGERPRINT}:AbCdEfGhIj1`,
      IOS_APPS: 'ABCDE12345.com.a.app',
    });
    assert.deepEqual(androidApps, [
      { packageName: 'com.a.app', sha256: FINGERPRINT },
      { packageName: 'com.b.app', sha256: FINGERPRINT, smsHash: 'AbCdEfGhIj1' },
    ]);
    assert.deepEqual(iosApps, [
      { appId: 'ABCDE12345.com.a.app', teamId: 'ABCDE12345', bundleId: 'com.a.app' },
    ]);
    const problems = problemsOf({
      ANDROID_APPS: `app:${FINGERPRINT}, com.a.app:AB:CD, com.c.app:${FINGERPRINT}, com.c.app:${FINGERPRINT}`,
      IOS_APPS: 'com.a.app, ABC.com.a.app',
    });
    for (const words of [
      '"app:',
      '"com.a.app:AB:CD"',
      'com.c.app is named twice',
      '"com.a.app" must be',
      '"ABC.com.a.app"',
    ])
      assert.ok(
        problems.some((p) => p.includes(words)),
        `${words}: ${problems.join('; ')}`,
      );
  });
});
