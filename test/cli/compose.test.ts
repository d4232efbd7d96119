import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { loadConfig, readDotEnv } from '../../src/config/config.ts';

// compose.yaml and deploy/new-env.sh, read as compose and a shell read them (CI runs no containers): the
// settings come from deploy/'s own files, never a development checkout's .env; `--profile try` serves with
// codes printed to the log, `--profile production` with the SMS provider filled in; each starts with the
// secrets the generator writes.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const COMPOSE_TEXT = readFileSync(join(ROOT, 'compose.yaml'), 'utf8');

interface Service {
  profiles?: string[];
  env_file?: string;
  environment?: Record<string, string>;
}
const compose: { services: Record<string, Service> } = parse(COMPOSE_TEXT, { merge: true });

describe('compose.yaml and deploy/new-env.sh', () => {
  const dir = mkdtempSync(join(tmpdir(), 'callsign-compose-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const generate = (...args: string[]) =>
    spawnSync('sh', [join(ROOT, 'deploy/new-env.sh'), ...args], {
      env: { ...process.env, CALLSIGN_ENV_DIR: dir },
      encoding: 'utf8',
    });

  test('every setting comes from deploy/; nothing is read from the .env beside it', () => {
    assert.doesNotMatch(COMPOSE_TEXT, /\$\{/, 'no variable of the shell or of ./.env');
    const { callsign, 'callsign-try': tryIt, postgres, redis } = compose.services;
    assert.deepEqual([callsign.profiles, tryIt.profiles], [['production'], ['try']]);
    assert.equal(postgres.profiles ?? redis.profiles, undefined, 'the stores start with either profile');
    assert.deepEqual([callsign.env_file, tryIt.env_file], ['deploy/.env', 'deploy/.env']);
    assert.equal(postgres.env_file, 'deploy/postgres.env');
  });

  test('the generator writes fresh secrets, readable by their owner alone, and never overwrites them', () => {
    const first = generate('https://auth.example.com');
    assert.equal(first.status, 0, first.stderr);
    const env = readDotEnv(join(dir, '.env'));
    const database = readDotEnv(join(dir, 'postgres.env'));
    assert.deepEqual(Object.keys(database), ['POSTGRES_PASSWORD']);
    assert.equal(
      env.DATABASE_URL,
      `postgres://callsign:${database.POSTGRES_PASSWORD}@postgres:5432/callsign`,
    );
    assert.equal(Buffer.from(env.PIN_PEPPER ?? '', 'base64').length, 32);
    assert.equal(Buffer.from(env.KEY_ENCRYPTION_KEY ?? '', 'base64').length, 32);
    assert.match(env.ADMIN_TOKEN ?? '', /^[0-9a-f]{48}$/);
    assert.notEqual(env.PIN_PEPPER, env.KEY_ENCRYPTION_KEY);
    for (const file of ['.env', 'postgres.env'])
      assert.equal(statSync(join(dir, file)).mode & 0o077, 0, file);
    const again = generate();
    assert.equal(again.status, 1);
    assert.match(again.stderr, /is there already/);
    assert.deepEqual(readDotEnv(join(dir, '.env')), env, 'the secrets stand');
  });

  test('--profile try starts with console SMS; --profile production needs the SMS provider filled in', () => {
    const env = readDotEnv(join(dir, '.env'));
    const settings = (service: Service, extra: Record<string, string> = {}) =>
      loadConfig({ ...env, ...service.environment, DATA_DIR: dir, ...extra });
    const tried = settings(compose.services['callsign-try']);
    assert.equal(tried.smsProvider, 'console');
    assert.equal(tried.host, '0.0.0.0', 'reachable through the published port');
    assert.throws(() => settings(compose.services.callsign), /SMS_PROVIDER=console/);
    const twilio = {
      SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`,
      TWILIO_AUTH_TOKEN: 'x'.repeat(32),
    };
    const production = settings(compose.services.callsign, { ...twilio, TWILIO_FROM: '+14155550100' });
    assert.equal(production.appEnv, 'production');
    assert.equal(production.redisUrl, 'redis://redis:6379');
  });
});
