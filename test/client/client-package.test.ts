import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import {
  CLIENT_TYPES_FILE,
  clientTypesOf,
  ERROR_CODES_FILE,
  errorCodesText,
} from '../../scripts/client-types.ts';
import { createTestApp, signUp, type TestApp } from '../helpers/app.ts';
import { type ListeningApp, listeningApp } from '../helpers/client-app.ts';

// The package itself: installed by the root `npm ci` as a workspace with its built output, its types the
// server's own document's, its browser entry small and free of Node.js, and working where a React Native app
// runs it (no window, localStorage, BroadcastChannel or Web Locks; an async storage).

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The browser entry's most, minified and gzipped. */
const BROWSER_BUDGET_BYTES = 12 * 1024;

describe('@callsign/client as a package', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('its committed types are what the server’s /openapi.json generates (npm run client:types)', async () => {
    const document = (await t.request('GET', '/openapi.json')).body;
    const expected = await clientTypesOf(document);
    assert.ok(
      readFileSync(CLIENT_TYPES_FILE, 'utf8') === expected,
      'packages/client/src/generated/openapi.ts differs from the API: run `npm run client:types`',
    );
    assert.ok(
      readFileSync(ERROR_CODES_FILE, 'utf8') === errorCodesText(),
      'packages/client/src/generated/error-codes.ts differs from the domain’s codes: run `npm run client:types`',
    );
  });

  test('node_modules/@callsign/client is the workspace, built: both entries and their declarations', () => {
    const browserEntry = fileURLToPath(import.meta.resolve('@callsign/client'));
    const serverEntry = fileURLToPath(import.meta.resolve('@callsign/client/server'));
    assert.equal(browserEntry, `${ROOT}packages/client/dist/index.js`);
    assert.equal(serverEntry, `${ROOT}packages/client/dist/server.js`);
    for (const file of ['index.d.ts', 'server.d.ts'])
      assert.ok(existsSync(`${ROOT}packages/client/dist/${file}`), file);
  });

  test('the browser entry imports nothing and stays under 12 KB minified and gzipped', async () => {
    const bundled = await build({
      entryPoints: [fileURLToPath(import.meta.resolve('@callsign/client'))],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      metafile: true,
    });
    assert.deepEqual(
      Object.values(bundled.metafile.outputs)[0].imports,
      [],
      'no import left, no Node.js built-in',
    );
    const size = gzipSync(bundled.outputFiles[0].contents).length;
    assert.ok(size < BROWSER_BUDGET_BYTES, `${size} bytes`);
  });
});

describe('@callsign/client where React Native runs it', () => {
  let s: ListeningApp;
  before(async () => {
    s = await listeningApp();
  });
  after(() => s.t.close());

  test('no window, localStorage, BroadcastChannel or navigator.locks; an async storage: it signs in, refreshes, signs out', async () => {
    const user = await signUp(s.t);
    const script = `
      delete globalThis.BroadcastChannel;
      for (const name of ['window', 'localStorage', 'navigator'])
        if (name in globalThis) throw new Error(name + ' is here');
      const { createClient } = await import('@callsign/client');
      const items = new Map();
      const later = (f) => new Promise((resolve) => setTimeout(() => resolve(f()), 1));
      const storage = {
        getItem: (k) => later(() => items.get(k) ?? null),
        setItem: (k, v) => later(() => void items.set(k, v)),
        removeItem: (k) => later(() => void items.delete(k)),
      };
      const client = createClient({ baseUrl: process.env.BASE_URL, storage });
      const events = [];
      client.auth.onChange((e) => events.push(e.type));
      const session = await client.auth.signIn({ phone: process.env.PHONE, pin: process.env.PIN });
      // The access token as if it expired a minute ago: the next calls refresh it first, once.
      const key = [...items.keys()][0];
      await storage.setItem(key, JSON.stringify({ ...session, expiresAt: Date.now() - 60000 }));
      const restarted = createClient({ baseUrl: process.env.BASE_URL, storage });
      restarted.auth.onChange((e) => events.push(e.type));
      const users = await Promise.all([restarted.users.me(), restarted.users.me(), restarted.sessions.list()]);
      await restarted.auth.signOut();
      console.log(JSON.stringify({ id: users[0].id, events, left: items.size }));
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
      env: { ...process.env, BASE_URL: s.baseUrl, PHONE: user.phone, PIN: user.pin },
    });
    assert.deepEqual(JSON.parse(stdout), {
      id: user.user.id,
      events: ['SIGNED_IN', 'TOKEN_REFRESHED', 'SIGNED_OUT'],
      left: 0,
    });
  });
});

describe('@callsign/client packed for an app', () => {
  test('npm pack gives both built entries, their declarations and the README; an app imports them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'callsign-pack-'));
    try {
      const { stdout } = await run(
        'npm',
        ['pack', '--workspace', '@callsign/client', '--json', '--ignore-scripts', '--pack-destination', dir],
        {
          cwd: ROOT,
        },
      );
      const [packed] = JSON.parse(stdout);
      const files = packed.files.map((f: { path: string }) => f.path);
      for (const file of [
        'dist/index.js',
        'dist/index.d.ts',
        'dist/server.js',
        'dist/server.d.ts',
        'README.md',
      ])
        assert.ok(files.includes(file), file);
      assert.ok(!files.some((f: string) => f.startsWith('src/')), 'no sources');
      // An app's node_modules: the package from the tarball, and jose, its one dependency.
      const installed = join(dir, 'app/node_modules/@callsign/client');
      mkdirSync(installed, { recursive: true });
      await run('tar', ['-xzf', join(dir, packed.filename), '-C', installed, '--strip-components=1']);
      symlinkSync(join(ROOT, 'node_modules/jose'), join(dir, 'app/node_modules/jose'));
      const script = `const client = await import('@callsign/client'); const server = await import('@callsign/client/server');
        console.log(JSON.stringify([typeof client.createClient, typeof server.verifyAccessToken, typeof server.createServerClient]));`;
      const imported = await run(process.execPath, ['--input-type=module', '-e', script], {
        cwd: join(dir, 'app'),
      });
      assert.deepEqual(JSON.parse(imported.stdout), ['function', 'function', 'function']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the README’s walk-through with the client library', () => {
  let s: ListeningApp;
  before(async () => {
    s = await listeningApp({ TEST_PHONE_NUMBERS: '+14155550142=246810' });
  });
  after(() => s.t.close());

  test('runs as written, against a running service, with the code typed in', async () => {
    const readme = readFileSync(`${ROOT}README.md`, 'utf8');
    const section = readme.slice(readme.indexOf('## The same with the client library'));
    const script = /```js\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    assert.ok(script.includes("from '@callsign/client'"), 'the section has a script');
    const child = spawn(
      process.execPath,
      ['--input-type=module', '-e', script.replace('http://localhost:3000', s.baseUrl)],
      {
        cwd: ROOT,
      },
    );
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('the code printed by the server: ') && child.stdin.writable)
        child.stdin.end('246810\n');
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const code = await new Promise((resolve) => child.on('close', resolve));
    assert.equal(code, 0, output);
    assert.match(output, /event: SIGNED_IN\nsigned up as grace\n/);
    assert.match(output, /device_name: 'Terminal'/);
    assert.match(output, /event: SIGNED_OUT\n$/);
  });
});
