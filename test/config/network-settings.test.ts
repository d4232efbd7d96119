import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/config/config.ts';
import { problemsOf } from '../helpers/config-problems.ts';

// The silent network check's settings are checked at start: the provider's every missing setting named, its
// key an RSA key in PEM (the text or a file), countries ISO codes, the daily limit a whole number.

const CAMARA = {
  NETWORK_VERIFICATION_PROVIDER: 'camara',
  NETWORK_VERIFICATION_CAMARA_ISSUER: 'https://operator.example.com/',
  NETWORK_VERIFICATION_CAMARA_API_ROOT: 'https://api.operator.example.com/number-verification/v2',
  NETWORK_VERIFICATION_CAMARA_CLIENT_ID: 'callsign',
};

/** The camara settings a configuration loaded. */
function camaraOf(config: ReturnType<typeof loadConfig>) {
  const { provider } = config.networkVerification;
  assert.equal(provider?.kind, 'camara');
  return provider as Extract<typeof provider, { kind: 'camara' }>;
}

test('none by default: every number is proven by a code', () => {
  const { networkVerification } = loadConfig({});
  assert.equal(networkVerification.provider, undefined);
  assert.equal(networkVerification.dailyLimit, undefined);
  assert.equal(networkVerification.countries, undefined);
});

test('camara names every setting it lacks; an unknown provider is named', () => {
  const missing = problemsOf({ NETWORK_VERIFICATION_PROVIDER: 'camara' });
  for (const name of ['ISSUER', 'API_ROOT', 'CLIENT_ID'])
    assert.ok(
      missing.some((p) => p.startsWith(`NETWORK_VERIFICATION_CAMARA_${name} is required`)),
      missing.join('; '),
    );
  assert.ok(
    problemsOf({ NETWORK_VERIFICATION_PROVIDER: 'sms' }).some((p) =>
      p.startsWith('NETWORK_VERIFICATION_PROVIDER must be one of none, camara, vonage, twilio'),
    ),
  );
  const { networkVerification } = loadConfig(CAMARA);
  assert.deepEqual(networkVerification.provider, {
    kind: 'camara',
    issuer: 'https://operator.example.com',
    apiRoot: 'https://api.operator.example.com/number-verification/v2',
    clientId: 'callsign',
    hashed: false,
    privateKeyPem: undefined,
  });
});

test('the key is an RSA key in PEM, as text or in a file; anything else is named', () => {
  const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  }) as string;
  const file = join(mkdtempSync(join(tmpdir(), 'callsign-key-')), 'operator.pem');
  writeFileSync(file, pem);
  for (const value of [pem, pem.replaceAll('\n', '\\n'), file])
    assert.equal(
      camaraOf(loadConfig({ ...CAMARA, NETWORK_VERIFICATION_CAMARA_PRIVATE_KEY: value })).privateKeyPem,
      pem,
    );
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  });
  for (const value of ['not a key', String(ec), '/nowhere/key.pem'])
    assert.ok(
      problemsOf({ ...CAMARA, NETWORK_VERIFICATION_CAMARA_PRIVATE_KEY: value }).some((p) =>
        p.startsWith('NETWORK_VERIFICATION_CAMARA_PRIVATE_KEY must be an RSA private key'),
      ),
      value.slice(0, 20),
    );
});

test('countries are ISO codes; the daily limit a whole number of checks', () => {
  const { networkVerification } = loadConfig({
    ...CAMARA,
    NETWORK_VERIFICATION_COUNTRIES: 'ng, in',
    NETWORK_VERIFICATION_DAILY_LIMIT: '5000',
  });
  assert.deepEqual([...(networkVerification.countries ?? [])], ['NG', 'IN']);
  assert.equal(networkVerification.dailyLimit, 5000);
  assert.ok(problemsOf({ NETWORK_VERIFICATION_COUNTRIES: 'XX' }).some((p) => p.includes('"XX"')));
  assert.ok(
    problemsOf({ NETWORK_VERIFICATION_DAILY_LIMIT: '0' }).some((p) =>
      p.startsWith('NETWORK_VERIFICATION_DAILY_LIMIT must be a whole number'),
    ),
  );
});

test('vonage and twilio name every setting they lack, and reach the vendor at its own address by default', () => {
  const vonage = problemsOf({ NETWORK_VERIFICATION_PROVIDER: 'vonage' });
  for (const name of ['APPLICATION_ID', 'PRIVATE_KEY'])
    assert.ok(
      vonage.some((p) => p.startsWith(`NETWORK_VERIFICATION_VONAGE_${name} is required`)),
      vonage.join('; '),
    );
  const twilio = problemsOf({ NETWORK_VERIFICATION_PROVIDER: 'twilio' });
  for (const name of ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'NETWORK_VERIFICATION_TWILIO_SERVICE_SID'])
    assert.ok(
      twilio.some((p) => p.startsWith(`${name} is required`)),
      twilio.join('; '),
    );
  const pem = String(
    generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
  );
  assert.deepEqual(
    loadConfig({
      NETWORK_VERIFICATION_PROVIDER: 'vonage',
      NETWORK_VERIFICATION_VONAGE_APPLICATION_ID: 'app-1',
      NETWORK_VERIFICATION_VONAGE_PRIVATE_KEY: pem,
    }).networkVerification.provider,
    { kind: 'vonage', applicationId: 'app-1', privateKeyPem: pem, apiUrl: 'https://api.nexmo.com' },
  );
  assert.ok(
    problemsOf({
      NETWORK_VERIFICATION_PROVIDER: 'vonage',
      NETWORK_VERIFICATION_VONAGE_APPLICATION_ID: 'app-1',
      NETWORK_VERIFICATION_VONAGE_PRIVATE_KEY: 'not a key',
    }).some((p) => p.startsWith('NETWORK_VERIFICATION_VONAGE_PRIVATE_KEY must be an RSA private key')),
  );
  const { networkVerification } = loadConfig({
    NETWORK_VERIFICATION_PROVIDER: 'twilio',
    TWILIO_ACCOUNT_SID: 'AC0123',
    TWILIO_AUTH_TOKEN: 'secret-token',
    NETWORK_VERIFICATION_TWILIO_SERVICE_SID: 'VA0123',
    NETWORK_VERIFICATION_TIMEOUT_MS: '2500',
  });
  assert.deepEqual(networkVerification.provider, {
    kind: 'twilio',
    accountSid: 'AC0123',
    authToken: 'secret-token',
    serviceSid: 'VA0123',
    apiUrl: 'https://verify.twilio.com',
  });
  assert.equal(networkVerification.timeoutMs, 2500);
  assert.equal(loadConfig({}).networkVerification.timeoutMs, 6000);
  assert.ok(
    problemsOf({ NETWORK_VERIFICATION_TIMEOUT_MS: '50' }).some((p) =>
      p.startsWith('NETWORK_VERIFICATION_TIMEOUT_MS must be'),
    ),
  );
});

test('the price of a check per country: a JSON object of ISO codes to numbers, each problem named', () => {
  assert.deepEqual(
    loadConfig({ NETWORK_VERIFICATION_PRICE: '{"NG": 0.004, "IN": 0}' }).networkVerification.prices,
    { NG: 0.004, IN: 0 },
  );
  assert.deepEqual(loadConfig({}).networkVerification.prices, {});
  const problems = problemsOf({ NETWORK_VERIFICATION_PRICE: '{"XX": 1, "NG": -1, "IN": "2"}' });
  for (const words of ['"XX" is not an ISO', 'the price of NG', 'the price of IN'])
    assert.ok(
      problems.some((p) => p.includes(words)),
      `${words}: ${problems.join('; ')}`,
    );
  assert.ok(
    problemsOf({ NETWORK_VERIFICATION_PRICE: '[1]' }).some((p) =>
      p.startsWith('NETWORK_VERIFICATION_PRICE must be a JSON object'),
    ),
  );
});
