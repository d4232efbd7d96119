import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import pkg from '../../package.json' with { type: 'json' };
import { bundle, scratchBundleDir } from '../../scripts/bundle.mjs';
import { CHILD_CWD, spawnServer } from '../helpers/spawn-server.ts';

const MIGRATIONS = new URL('../../src/storage/migrations/', import.meta.url);

describe('the bundle `npm start` runs', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'callsign-bundle-'));
  // Deeper than dist/, so that a file found by its path relative to the sources would be missed.
  const outDir = scratchBundleDir('callsign-bundle-test-');
  after(() => {
    for (const dir of [dataDir, outDir]) rmSync(dir, { recursive: true, force: true });
  });

  test('plain JavaScript that migrates and serves without the TypeScript loader', async () => {
    const bin = await bundle(outDir);
    const code = readFileSync(bin, 'utf8');
    assert.doesNotMatch(
      code,
      /from ['"][^'"]+\.ts['"]|import\(['"][^'"]+\.ts['"]\)/,
      'every source is inside',
    );
    assert.doesNotMatch(code, /['"]tsx(\/[^'"]*)?['"]/, 'nothing loads tsx');

    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' };
    delete env.DATABASE_URL;
    env.LOG_LEVEL = 'warn';
    // The migrations are read beside the bundle: every one of them applies.
    const migrated = spawnSync(process.execPath, [bin, 'migrate'], { env, cwd: CHILD_CWD, encoding: 'utf8' });
    assert.equal(migrated.status, 0, migrated.stderr);
    const files = readdirSync(MIGRATIONS).filter((f) => /^\d{3}_.+\.sql$/.test(f));
    assert.ok(files.length > 0);
    assert.equal(migrated.stdout.trim(), `applied: ${files.sort().join(', ')}`);

    const server = await spawnServer(env, [], bin);
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/health`);
      assert.equal(res.status, 200);
      // The version is read from package.json when the bundle is built.
      assert.equal((await res.json()).version, pkg.version);
      const otp = await fetch(`http://127.0.0.1:${server.port}/auth/otp/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ phone: '+16502229876', purpose: 'signup' }),
      });
      assert.equal(otp.status, 200, 'the tables the migrations made are there');
    } finally {
      server.child.kill('SIGTERM');
      assert.equal(await server.exited, 0);
    }
  });

  test('a rebuild in place writes only what changed, each file whole (another instance may be starting)', async () => {
    const bin = await bundle(outDir);
    const files = readdirSync(MIGRATIONS).sort();
    const first = join(outDir, 'migrations', files[0]);
    const before = { bin: statSync(bin).ino, first: statSync(first).ino };
    writeFileSync(first, '-- not the migration');
    writeFileSync(join(outDir, 'migrations', '999_gone.sql'), 'SELECT 1;');
    const arriving = join(outDir, 'migrations', '001_x.sql.4242.partial');
    writeFileSync(arriving, '');
    await bundle(outDir);
    assert.equal(statSync(bin).ino, before.bin, 'the unchanged bundle is left as it was');
    assert.notEqual(
      statSync(first).ino,
      before.first,
      'a changed file is replaced by another, not rewritten',
    );
    assert.deepEqual(readFileSync(first), readFileSync(new URL(files[0], MIGRATIONS)));
    assert.deepEqual(
      readdirSync(join(outDir, 'migrations')).sort(),
      [...files, '001_x.sql.4242.partial'].sort(),
      'a migration no longer in the sources goes; what another instance is placing stays',
    );
  });
});
