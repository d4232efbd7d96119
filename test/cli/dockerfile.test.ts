import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { bundle } from '../../scripts/bundle.mjs';
import { spawnServer } from '../helpers/spawn-server.ts';

// The Dockerfile's steps in a clean directory, since CI runs no containers: the files its COPY lines name, its
// production install (from npm's cache), the bundle its build stage makes, then its command with its ENV. The
// image is a production service: with its ENV alone it refuses to start, naming each setting production
// needs; with APP_ENV=development (the documented try-out) it serves on PGlite in the data volume and answers
// the readiness probe its HEALTHCHECK asks.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCKERFILE = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');

/** The runtime stage's ENV, as `NAME=value` pairs. */
function runtimeEnv(): Record<string, string> {
  const runtime = DOCKERFILE.slice(DOCKERFILE.lastIndexOf('\nFROM '));
  const block = /\nENV ((?:[^\n]*\\\n)*[^\n]*)/.exec(runtime)?.[1] ?? '';
  return Object.fromEntries(
    block
      .replaceAll('\\\n', ' ')
      .split(/\s+/)
      .filter(Boolean)
      .map((pair) => pair.split('=') as [string, string]),
  );
}

describe('the Dockerfile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'callsign-image-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('says what the image is: Node.js 20 on bookworm, two stages, a non-root user, /data, port 3000, a probe', () => {
    assert.equal((DOCKERFILE.match(/^FROM node:20-bookworm-slim/gm) ?? []).length, 2, 'multi-stage');
    assert.match(DOCKERFILE, /^RUN npm ci --omit=dev /m, 'production packages only');
    assert.match(DOCKERFILE, /^COPY --from=build \/app\/dist \.\/dist$/m, 'the bundle');
    assert.match(DOCKERFILE, /^USER node$/m);
    assert.match(DOCKERFILE, /^VOLUME \["\/data"\]$/m);
    assert.match(DOCKERFILE, /^EXPOSE 3000$/m);
    assert.match(DOCKERFILE, /^HEALTHCHECK [\s\S]*\/health\/ready/m);
    assert.match(DOCKERFILE, /^CMD \["node", "dist\/callsign\.mjs", "serve"\]$/m);
    assert.deepEqual(runtimeEnv(), {
      NODE_ENV: 'production',
      APP_ENV: 'production',
      HOST: '0.0.0.0',
      PORT: '3000',
      DATA_DIR: '/data',
    });
  });

  test('its steps in a clean directory make a service that refuses to start without production settings, and with APP_ENV=development answers /health/ready on PGlite', async () => {
    for (const file of ['package.json', 'package-lock.json', 'packages/client/package.json']) {
      mkdirSync(join(dir, file, '..'), { recursive: true });
      cpSync(join(ROOT, file), join(dir, file));
    }
    const install = spawnSync(
      'npm',
      ['ci', '--omit=dev', '--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline'],
      { cwd: dir, encoding: 'utf8' },
    );
    assert.equal(install.status, 0, install.stderr);
    assert.equal(existsSync(join(dir, 'node_modules/typescript')), false, 'no development package');
    const bin = await bundle(join(dir, 'dist'));
    const dataDir = join(dir, 'data');
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      ...runtimeEnv(),
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    };
    // A bare `docker run`: no development service on every interface, but each missing setting named.
    const bare = spawnSync(process.execPath, [bin, 'serve'], {
      env,
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.notEqual(bare.status, 0, bare.stdout);
    for (const needed of ['PIN_PEPPER', 'KEY_ENCRYPTION_KEY', 'DATABASE_URL', 'SMS_PROVIDER=console'])
      assert.match(bare.stderr, new RegExp(needed), needed);
    assert.equal(existsSync(join(dataDir, 'pglite')), false, 'nothing made');
    const server = await spawnServer({ ...env, APP_ENV: 'development' }, [], bin);
    try {
      const ready = await fetch(`http://127.0.0.1:${server.port}/health/ready`);
      assert.equal(ready.status, 200);
      assert.deepEqual(await ready.json(), { status: 'ready', failing: [], degraded: [] });
      assert.ok(existsSync(join(dataDir, 'pglite')), 'PGlite in the data directory');
    } finally {
      await server.stop();
    }
  });
});
