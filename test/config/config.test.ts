import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, configWarnings, loadConfig } from '../../src/config/config.ts';
import { DEFAULT_RATE_LIMITS } from '../../src/config/rate-limits.ts';

const secret = Buffer.alloc(32, 7).toString('base64');
const production = {
  APP_ENV: 'production',
  DATABASE_URL: 'postgres://db/callsign',
  PIN_PEPPER: secret,
  KEY_ENCRYPTION_KEY: secret,
  SMS_PROVIDER: 'http',
  SMS_HTTP_URL: 'https://sms.example/send',
};

const problems = (env: Record<string, string>) => {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    return err.problems;
  }
};

describe('configuration', () => {
  test('defaults: port 3000, development, URLs on the server itself, PGlite under ./data', () => {
    const c = loadConfig({});
    assert.equal(c.port, 3000);
    assert.equal(c.appEnv, 'development');
    assert.equal(c.baseUrl, 'http://localhost:3000');
    assert.equal(c.authUrl, c.baseUrl);
    assert.equal(c.verifyUrl, c.baseUrl);
    assert.equal(c.databaseUrl, undefined);
    assert.match(c.dataDir, /\/data$/);
    assert.equal(c.smsProvider, 'console');
    assert.equal(c.firstPartyClientId, 'callsign');
    assert.equal(c.webhookAllowPrivateNetworks, false);
    assert.ok(Object.isFrozen(c));
  });

  test('in development the limits on codes sent are ten times looser; RATE_LIMITS still sets them; elsewhere the contract', () => {
    const dev = loadConfig({ APP_ENV: 'development' }).rateLimits;
    assert.deepEqual(dev.otp_send_phone, { limit: 30, windowSeconds: 3600 });
    assert.deepEqual(dev.otp_send_address, { limit: 100, windowSeconds: 3600 });
    assert.deepEqual(dev.signin_phone, { limit: 5, windowSeconds: 900 }, 'only the code limits');
    for (const env of ['test', 'staging'])
      assert.deepEqual(
        loadConfig({ APP_ENV: env }).rateLimits.otp_send_phone,
        { limit: 3, windowSeconds: 3600 },
        env,
      );
    const set = loadConfig({ APP_ENV: 'development', RATE_LIMITS: 'otp_send_phone=2/60' }).rateLimits;
    assert.deepEqual(set.otp_send_phone, { limit: 2, windowSeconds: 60 });
  });

  test('DATABASE_POOLER: none, or transaction, which listens only at DATABASE_LISTEN_URL', () => {
    const direct = loadConfig({ DATABASE_URL: 'postgres://db/callsign' });
    assert.deepEqual([direct.databasePooler, direct.databaseListenUrl], ['none', 'postgres://db/callsign']);
    const pooled = loadConfig({ DATABASE_URL: 'postgres://pooler/callsign', DATABASE_POOLER: 'transaction' });
    assert.deepEqual([pooled.databasePooler, pooled.databaseListenUrl], ['transaction', undefined]);
    const listening = loadConfig({
      DATABASE_URL: 'postgres://pooler/callsign',
      DATABASE_POOLER: 'transaction',
      DATABASE_LISTEN_URL: 'postgres://db/callsign',
    });
    assert.equal(listening.databaseListenUrl, 'postgres://db/callsign');
    assert.ok(problems({ DATABASE_POOLER: 'session' }).some((p) => p.includes('DATABASE_POOLER')));
  });

  test('REDIS_SENTINELS: host:port each, with the master name (mymaster unless said)', () => {
    const c = loadConfig({
      REDIS_SENTINELS: 'sentinel-a:26379, sentinel-b:26380',
      REDIS_MASTER_NAME: 'callsign',
    });
    assert.deepEqual(c.redisSentinels, [
      { host: 'sentinel-a', port: 26379 },
      { host: 'sentinel-b', port: 26380 },
    ]);
    assert.equal(c.redisMasterName, 'callsign');
    assert.equal(loadConfig({}).redisMasterName, 'mymaster');
    assert.deepEqual(loadConfig({}).redisSentinels, []);
    assert.ok(problems({ REDIS_SENTINELS: 'sentinel-a' }).some((p) => p.includes('REDIS_SENTINELS')));
  });

  test('HOST: this machine only in development and test (its log holds codes), every interface in staging and production', () => {
    assert.equal(loadConfig({}).host, '127.0.0.1');
    assert.equal(loadConfig({ APP_ENV: 'test' }).host, '127.0.0.1');
    assert.equal(loadConfig({ APP_ENV: 'staging' }).host, '0.0.0.0');
    assert.equal(loadConfig({ APP_ENV: 'development', HOST: '0.0.0.0' }).host, '0.0.0.0');
  });

  test('every bad variable is named in one error', () => {
    const found = problems({
      PORT: 'eighty',
      APP_ENV: 'prod',
      BASE_URL: 'ftp://x',
      SMS_PROVIDER: 'pigeon',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'maybe',
    });
    for (const name of ['PORT', 'APP_ENV', 'BASE_URL', 'SMS_PROVIDER', 'WEBHOOK_ALLOW_PRIVATE_NETWORKS']) {
      assert.ok(
        found.some((p) => p.startsWith(name)),
        name,
      );
    }
  });

  test('METRICS_TOKEN is at least 24 characters', () => {
    assert.ok(problems({ METRICS_TOKEN: 'x'.repeat(23) }).some((p) => p.startsWith('METRICS_TOKEN')));
    assert.ok(!problems({ METRICS_TOKEN: 'x'.repeat(24) }).some((p) => p.startsWith('METRICS_TOKEN')));
  });

  test('ADMIN_TOKEN is at least 24 characters', () => {
    assert.ok(problems({ ADMIN_TOKEN: 'x'.repeat(23) }).some((p) => p.startsWith('ADMIN_TOKEN')));
    assert.ok(!problems({ ADMIN_TOKEN: 'x'.repeat(24) }).some((p) => p.startsWith('ADMIN_TOKEN')));
  });

  test('SMS providers need their settings', () => {
    assert.ok(problems({ SMS_PROVIDER: 'http' }).some((p) => p.includes('SMS_HTTP_URL')));
    const twilio = problems({ SMS_PROVIDER: 'twilio' });
    for (const n of ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'])
      assert.ok(
        twilio.some((p) => p.includes(n)),
        n,
      );
  });

  test('TEST_PHONE_NUMBERS parses +E164=6 digits pairs', () => {
    const c = loadConfig({ TEST_PHONE_NUMBERS: '+14155550100=000000, +14155550101=123456' });
    assert.equal(c.testPhoneNumbers.get('+14155550101'), '123456');
    assert.ok(problems({ TEST_PHONE_NUMBERS: '4155550100=1' }).length);
  });

  test('production starts with its secrets, and refuses test numbers, sandbox KYC, console SMS, missing secrets', () => {
    assert.equal(loadConfig(production).appEnv, 'production');
    assert.ok(
      problems({ ...production, TEST_PHONE_NUMBERS: '+14155550100=000000' }).some((p) =>
        p.startsWith('TEST_PHONE_NUMBERS'),
      ),
    );
    assert.ok(problems({ ...production, KYC_PROVIDER: 'sandbox' }).some((p) => p.startsWith('KYC_PROVIDER')));
    assert.ok(problems({ ...production, SMS_PROVIDER: 'console' }).some((p) => p.startsWith('SMS_PROVIDER')));
    const { PIN_PEPPER: _, KEY_ENCRYPTION_KEY: __, ...bare } = production;
    const missing = problems(bare);
    assert.ok(missing.some((p) => p.startsWith('PIN_PEPPER')));
    assert.ok(missing.some((p) => p.startsWith('KEY_ENCRYPTION_KEY')));
    assert.ok(
      problems({ ...production, PIN_PEPPER: 'c2hvcnQ=' }).some((p) => p.startsWith('PIN_PEPPER')),
      'too short',
    );
  });

  test('KEY_ENCRYPTION_KEY_FALLBACK is a key of its own, as long as KEY_ENCRYPTION_KEY', () => {
    const other = Buffer.alloc(32, 8).toString('base64');
    assert.deepEqual(problems({ ...production, KEY_ENCRYPTION_KEY_FALLBACK: other }), []);
    assert.equal(
      loadConfig({ ...production, KEY_ENCRYPTION_KEY_FALLBACK: other }).keyEncryptionKeyFallback,
      other,
    );
    assert.deepEqual(problems({ ...production, KEY_ENCRYPTION_KEY_FALLBACK: 'c2hvcnQ=' }), [
      'KEY_ENCRYPTION_KEY_FALLBACK must be at least 32 bytes, base64-encoded',
    ]);
    assert.deepEqual(problems({ ...production, KEY_ENCRYPTION_KEY_FALLBACK: secret }), [
      'KEY_ENCRYPTION_KEY_FALLBACK must not be KEY_ENCRYPTION_KEY itself',
    ]);
  });

  test('PIN_PEPPER_FALLBACK is a pepper of its own, as long as PIN_PEPPER; the banner reminds of it', () => {
    const other = Buffer.alloc(32, 8).toString('base64');
    const changing = loadConfig({ ...production, PIN_PEPPER_FALLBACK: other });
    assert.equal(changing.pinPepperFallback, other);
    assert.deepEqual(problems({ ...production, PIN_PEPPER_FALLBACK: 'c2hvcnQ=' }), [
      'PIN_PEPPER_FALLBACK must be at least 32 bytes, base64-encoded',
    ]);
    assert.deepEqual(problems({ ...production, PIN_PEPPER_FALLBACK: secret }), [
      'PIN_PEPPER_FALLBACK must not be PIN_PEPPER itself',
    ]);
    assert.equal(configWarnings(changing).length, 1);
    assert.match(configWarnings(changing)[0], /PIN_PEPPER_FALLBACK is set: .*`npx callsign keys pin-pepper`/);
  });

  test('every retention has a default and a setting; a bad value is named', () => {
    assert.deepEqual(loadConfig({}).retention, {
      kycPhotosDays: 30,
      adminActionsDays: 400,
      eventsDays: 30,
      messagesDays: 30,
      phoneChecksDays: 90,
      disabledEndpointPendingHours: 72,
      unusedLogosDays: 7,
      retiredKeysDays: 1,
    });
    const set = loadConfig({
      ADMIN_ACTIONS_RETENTION_DAYS: '365',
      KYC_RETENTION_DAYS: '0',
      EVENT_RETENTION_DAYS: '7',
      MESSAGE_RETENTION_DAYS: '14',
      PHONE_CHECK_RETENTION_DAYS: '180',
      DISABLED_ENDPOINT_PENDING_HOURS: '24',
      UNUSED_LOGO_RETENTION_DAYS: '0',
      RETIRED_KEY_RETENTION_DAYS: '30',
    }).retention;
    assert.deepEqual(
      [set.adminActionsDays, set.kycPhotosDays, set.eventsDays, set.messagesDays, set.phoneChecksDays],
      [365, 0, 7, 14, 180],
    );
    assert.deepEqual(
      [set.disabledEndpointPendingHours, set.unusedLogosDays, set.retiredKeysDays],
      [24, 0, 30],
    );
    for (const bad of ['0', '-1', '1.5', 'a year', '36501'])
      assert.deepEqual(problems({ ADMIN_ACTIONS_RETENTION_DAYS: bad }), [
        `ADMIN_ACTIONS_RETENTION_DAYS must be a whole number of days, 1-36500 (got "${bad}")`,
      ]);
    for (const name of ['EVENT_RETENTION_DAYS', 'MESSAGE_RETENTION_DAYS', 'PHONE_CHECK_RETENTION_DAYS'])
      assert.deepEqual(problems({ [name]: '0' }), [
        `${name} must be a whole number of days, 1-36500 (got "0")`,
      ]);
    assert.deepEqual(problems({ DISABLED_ENDPOINT_PENDING_HOURS: '0' }), [
      'DISABLED_ENDPOINT_PENDING_HOURS must be a whole number of hours, 1-8760 (got "0")',
    ]);
  });

  test('the start-up banner reminds of a key-encryption fallback left set', () => {
    assert.deepEqual(configWarnings(loadConfig(production)), []);
    const changing = loadConfig({
      ...production,
      KEY_ENCRYPTION_KEY_FALLBACK: Buffer.alloc(32, 8).toString('base64'),
    });
    assert.equal(configWarnings(changing).length, 1);
    assert.match(
      configWarnings(changing)[0],
      /KEY_ENCRYPTION_KEY_FALLBACK is set: run `npx callsign keys reencrypt`/,
    );
  });

  test('TRUST_PROXY: no proxy, a number of hops, the proxies’ addresses, or every hop (warned of in production)', () => {
    assert.equal(loadConfig({}).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: 'false' }).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: '0' }).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: '1' }).trustProxy, 1, 'one hop, not "true"');
    assert.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2);
    assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.7,2001:db8::/32' }).trustProxy, [
      '10.0.0.0/8',
      '192.0.2.7',
      '2001:db8::/32',
    ]);
    assert.equal(loadConfig({ TRUST_PROXY: 'true' }).trustProxy, true);
    for (const wrong of ['yes', '10.0.0.0/33', '10.0.0.1,example.com', '11', '::1/129'])
      assert.match(problems({ TRUST_PROXY: wrong }).join('\n'), /TRUST_PROXY must be false, a number/, wrong);
    const everyHop = configWarnings(loadConfig({ ...production, TRUST_PROXY: 'true' }));
    assert.equal(everyHop.length, 1);
    assert.match(everyHop[0], /TRUST_PROXY=true trusts every X-Forwarded-For hop/);
    assert.deepEqual(configWarnings(loadConfig({ ...production, TRUST_PROXY: '1' })), []);
    assert.deepEqual(configWarnings(loadConfig({ TRUST_PROXY: 'true' })), [], 'development: no warning');
  });

  test('the default limits are the spec table; RATE_LIMITS overrides them by name', () => {
    assert.deepEqual(DEFAULT_RATE_LIMITS.otp_send_phone, { limit: 3, windowSeconds: 3600 });
    assert.deepEqual(DEFAULT_RATE_LIMITS.otp_send_address, { limit: 10, windowSeconds: 3600 });
    assert.deepEqual(DEFAULT_RATE_LIMITS.signin_phone, { limit: 5, windowSeconds: 900 });
    assert.deepEqual(DEFAULT_RATE_LIMITS.signin_address, { limit: 50, windowSeconds: 900 });
    assert.deepEqual(DEFAULT_RATE_LIMITS.handle_check_address, { limit: 30, windowSeconds: 60 });
    assert.deepEqual(DEFAULT_RATE_LIMITS.rest_user, { limit: 100, windowSeconds: 60 });
    assert.deepEqual(DEFAULT_RATE_LIMITS.rest_address, { limit: 100, windowSeconds: 60 });
    const c = loadConfig({
      APP_ENV: 'staging',
      RATE_LIMITS: 'signin_address=5000/900, rest_address=100000/60',
    });
    assert.deepEqual(c.rateLimits.signin_address, { limit: 5000, windowSeconds: 900 });
    assert.deepEqual(c.rateLimits.otp_send_phone, { limit: 3, windowSeconds: 3600 });
    assert.ok(problems({ RATE_LIMITS: 'nonsense=1/1' }).length);
    assert.ok(problems({ RATE_LIMITS: 'signin_phone=0/60' }).length);
  });
});

test('WEB_CONCURRENCY above 1 needs PostgreSQL', () => {
  assert.ok(problems({ WEB_CONCURRENCY: '2' }).some((p) => p.startsWith('WEB_CONCURRENCY')));
  assert.ok(
    problems({ WEB_CONCURRENCY: '2', DATABASE_URL: 'memory://' }).some((p) =>
      p.startsWith('WEB_CONCURRENCY'),
    ),
  );
  assert.equal(loadConfig({ WEB_CONCURRENCY: '2', DATABASE_URL: 'postgres://db/x' }).webConcurrency, 2);
  assert.ok(problems({ WEB_CONCURRENCY: 'many' }).length);
});

test('the hosted pages’ settings: DEFAULT_COUNTRY, BRAND_COLOR and BRAND_LOGO_URL are checked at start', () => {
  const problemsOf = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return [];
    } catch (err) {
      return (err as ConfigError).problems;
    }
  };
  const problems = problemsOf({
    DEFAULT_COUNTRY: 'XX',
    BRAND_COLOR: 'blue',
    BRAND_LOGO_URL: 'http://127.0.0.1/logo.png',
  });
  for (const name of ['DEFAULT_COUNTRY', 'BRAND_COLOR', 'BRAND_LOGO_URL'])
    assert.ok(
      problems.some((p) => p.startsWith(name)),
      `${name} in ${JSON.stringify(problems)}`,
    );
  const look = loadConfig({
    DEFAULT_COUNTRY: 'ng',
    BRAND_COLOR: '#0A7B3E',
    BRAND_NAME: 'Kopi Bank',
    BRAND_LOGO_URL: 'https://cdn.example/logo.png',
  }).look;
  assert.deepEqual(look, {
    defaultCountry: 'NG',
    brand: { name: 'Kopi Bank', logoUrl: 'https://cdn.example/logo.png', color: '#0a7b3e' },
  });
});

describe('passkeys and the ways of signing in', () => {
  test('SIGNIN_METHODS is pin and passkey unless set; WebAuthn binds to the hosted pages’ host', () => {
    const c = loadConfig({ AUTH_URL: 'https://login.example.com' });
    assert.deepEqual([...c.signInMethods], ['pin', 'passkey']);
    assert.deepEqual(c.webauthn, {
      rpId: 'login.example.com',
      rpName: 'Callsign',
      origins: ['https://login.example.com'],
    });
    const named = loadConfig({
      AUTH_URL: 'https://login.example.com',
      BRAND_NAME: 'Acme',
      WEBAUTHN_RP_ID: 'example.com',
      WEBAUTHN_ORIGINS: `https://app.example.com, android:apk-key-hash:${'A'.repeat(43)}`,
      SIGNIN_METHODS: 'passkey,code',
    });
    assert.deepEqual([...named.signInMethods], ['passkey', 'code']);
    assert.equal(named.webauthn.rpName, 'Acme');
    assert.deepEqual(named.webauthn.origins, [
      'https://login.example.com',
      'https://app.example.com',
      `android:apk-key-hash:${'A'.repeat(43)}`,
    ]);
  });

  test('a relying party the hosted pages are not on, an origin off its domain and an unknown method are named', () => {
    const found = problems({
      AUTH_URL: 'https://login.example.com',
      WEBAUTHN_RP_ID: 'other.example',
      WEBAUTHN_ORIGINS: 'https://evil.example,http://app.other.example,not an origin',
      SIGNIN_METHODS: 'pin,password',
    });
    for (const expected of [
      /^WEBAUTHN_RP_ID other\.example must be AUTH_URL's host/,
      /^WEBAUTHN_ORIGINS: "https:\/\/evil\.example" is not on other\.example/,
      /^WEBAUTHN_ORIGINS: "http:\/\/app\.other\.example" must be an https origin/,
      /^WEBAUTHN_ORIGINS: "not an origin" is neither/,
      /^SIGNIN_METHODS: "password" is not one of/,
    ])
      assert.ok(
        found.some((p) => expected.test(p)),
        `${expected} in ${found.join('; ')}`,
      );
    assert.ok(
      problems({ WEBAUTHN_RP_ID: '10.0.0.1' }).some((p) => p.startsWith('WEBAUTHN_RP_ID must be a domain')),
    );
    assert.ok(problems({ SIGNIN_METHODS: ' , ' }).some((p) => p.startsWith('SIGNIN_METHODS must name')));
  });
});
