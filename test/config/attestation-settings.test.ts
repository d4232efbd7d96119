import assert from 'node:assert/strict';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/config/config.ts';
import { problemsOf } from '../helpers/config-problems.ts';

// The attestation settings are checked at start: the mode, the apps it needs, a way to read Android tokens,
// the Play Console's keys as the console gives them, a service account's key file, and a test root only
// outside production.

const FINGERPRINT = randomBytes(32).toString('hex').toUpperCase().match(/../g)?.join(':');
const ANDROID = `com.duka.app:${FINGERPRINT}`;
const EC_KEY = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  .publicKey.export({ type: 'spki', format: 'der' })
  .toString('base64');
const AES_KEY = randomBytes(32).toString('base64');

const has = (problems: string[], words: string) =>
  assert.ok(
    problems.some((p) => p.includes(words)),
    `${words}: ${problems.join('; ')}`,
  );

test('off by default; the defaults of the device verdict and the environment', () => {
  const { attestation } = loadConfig({});
  assert.equal(attestation.mode, 'off');
  assert.equal(attestation.playIntegrity.deviceVerdict, 'MEETS_DEVICE_INTEGRITY');
  assert.equal(attestation.playIntegrity.apiUrl, 'https://playintegrity.googleapis.com');
  assert.equal(attestation.appAttest.environment, 'production');
});

test('prefer and require need apps, and a way to read an Android app’s tokens', () => {
  has(problemsOf({ APP_ATTESTATION: 'require' }), 'APP_ATTESTATION=require needs ANDROID_APPS or IOS_APPS');
  has(
    problemsOf({ APP_ATTESTATION: 'prefer', ANDROID_APPS: ANDROID }),
    'needs PLAY_INTEGRITY_SERVICE_ACCOUNT',
  );
  assert.deepEqual(problemsOf({ APP_ATTESTATION: 'prefer', IOS_APPS: 'ABCDE12345.com.duka.app' }), []);
  has(problemsOf({ APP_ATTESTATION: 'always' }), 'APP_ATTESTATION must be one of off, prefer, require');
});

test('the Play Console’s keys: a 32-byte AES key and an EC P-256 public key, together, for one app', () => {
  const env = { APP_ATTESTATION: 'prefer', ANDROID_APPS: ANDROID };
  assert.deepEqual(
    problemsOf({ ...env, PLAY_INTEGRITY_DECRYPTION_KEY: AES_KEY, PLAY_INTEGRITY_VERIFICATION_KEY: EC_KEY }),
    [],
  );
  has(
    problemsOf({
      ...env,
      PLAY_INTEGRITY_DECRYPTION_KEY: randomBytes(16).toString('base64'),
      PLAY_INTEGRITY_VERIFICATION_KEY: EC_KEY,
    }),
    'a 32-byte AES key',
  );
  has(
    problemsOf({
      ...env,
      PLAY_INTEGRITY_DECRYPTION_KEY: AES_KEY,
      PLAY_INTEGRITY_VERIFICATION_KEY: 'bm90IGEga2V5',
    }),
    'an EC P-256 public key',
  );
  has(problemsOf({ ...env, PLAY_INTEGRITY_DECRYPTION_KEY: AES_KEY }), 'go together');
  const two = `${ANDROID},com.duka.lite:${FINGERPRINT}`;
  has(
    problemsOf({
      APP_ATTESTATION: 'prefer',
      ANDROID_APPS: two,
      PLAY_INTEGRITY_DECRYPTION_KEY: AES_KEY,
      PLAY_INTEGRITY_VERIFICATION_KEY: EC_KEY,
    }),
    'serve one app',
  );
});

test('a service account’s key file is read; anything else is named', () => {
  const dir = mkdtempSync(join(tmpdir(), 'callsign-sa-'));
  const good = join(dir, 'good.json');
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  });
  writeFileSync(
    good,
    JSON.stringify({
      client_email: 'a@b.iam.gserviceaccount.com',
      private_key: key,
      token_uri: 'https://oauth2.googleapis.com/token',
    }),
  );
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, JSON.stringify({ client_email: 'a@b' }));
  const { attestation } = loadConfig({
    APP_ATTESTATION: 'prefer',
    ANDROID_APPS: ANDROID,
    PLAY_INTEGRITY_SERVICE_ACCOUNT: good,
  });
  assert.equal(attestation.playIntegrity.serviceAccount?.clientEmail, 'a@b.iam.gserviceaccount.com');
  for (const path of [bad, join(dir, 'missing.json')])
    has(problemsOf({ PLAY_INTEGRITY_SERVICE_ACCOUNT: path }), "a service account's JSON key file");
});

test('a test root for App Attest is refused in production', () => {
  const dir = mkdtempSync(join(tmpdir(), 'callsign-root-'));
  has(
    problemsOf({ APP_ENV: 'production', APP_ATTEST_ROOT_CA: join(dir, 'root.pem') }),
    'not allowed when APP_ENV=production',
  );
  has(problemsOf({ APP_ATTEST_ROOT_CA: 'not a certificate' }), 'must be a PEM certificate');
  has(
    problemsOf({ PLAY_INTEGRITY_DEVICE_VERDICT: 'MEETS_NOTHING' }),
    'PLAY_INTEGRITY_DEVICE_VERDICT must be one of',
  );
});
