import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { type AddressInfo, connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { sample } from '../helpers/metrics.ts';
import { BIN, CHILD_CWD, SOURCE_BIN, spawnServer } from '../helpers/spawn-server.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'callsign-cli-'));
const baseEnv: NodeJS.ProcessEnv = {
  ...process.env,
  DATA_DIR: dataDir,
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
};
delete baseEnv.DATABASE_URL;

const start = (env: NodeJS.ProcessEnv = baseEnv) => spawnServer(env);

const post = async (port: number, path: string, body: unknown) => {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
};

describe('the callsign command', () => {
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  test('serve: README walk-through on PGlite; SIGTERM finishes an in-flight request; data survives a restart', async () => {
    const s = await start();
    assert.match(s.output(), /API docs:/);
    assert.ok(s.output().includes(`storage:   PGlite in ${dataDir}/pglite\n`), s.output());
    assert.match(s.output(), /console: {3}off \(set ADMIN_TOKEN/);
    assert.doesNotMatch(s.output(), /warning:/, 'P58: nothing to warn about on PGlite');
    assert.ok(
      statSync(join(dataDir, 'secrets.json')).isFile(),
      'D39: development secrets generated into DATA_DIR',
    );
    assert.equal(statSync(join(dataDir, 'secrets.json')).mode & 0o077, 0, 'readable by the owner only');

    const phone = '+16502229876';
    assert.equal((await post(s.port, '/auth/otp/send', { phone, purpose: 'signup' })).status, 200);
    const code = new RegExp(`\\[sms:console\\] to \\${phone}: .*?(\\d{6})`).exec(s.output())?.[1];
    assert.ok(code, 'the console provider printed the code');
    const verified = await post(s.port, '/auth/otp/verify', { phone, code, purpose: 'signup' });
    const signedUp = await post(s.port, '/auth/signup', {
      temp_token: verified.body.data.temp_token,
      pin: '480715',
      handle: 'cli_user',
    });
    assert.equal(signedUp.status, 200);

    // An in-flight request: headers sent, body not yet; SIGTERM arrives; the body follows and is answered.
    const body = JSON.stringify({ phone, pin: '480715' });
    const socket = connect(s.port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    let answer = '';
    socket.on('data', (c) => {
      answer += c;
    });
    socket.write(
      `POST /auth/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    await new Promise((r) => setTimeout(r, 200));
    s.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 200));
    socket.write(body);
    await new Promise((r) => socket.once('close', r));
    assert.match(answer, /^HTTP\/1.1 200/, answer);
    assert.equal(await s.exited, 0, 'exits cleanly');

    // P107: started again with a key-encryption fallback set, the banner reminds of it.
    const again = await start({
      ...baseEnv,
      KEY_ENCRYPTION_KEY_FALLBACK: Buffer.alloc(32, 9).toString('base64'),
    });
    try {
      const signedIn = await post(again.port, '/auth/signin', { phone, pin: '480715' });
      assert.equal(signedIn.status, 200, 'PGlite flushed its files: the account is still there');
      assert.match(
        again.output(),
        /warning: {3}KEY_ENCRYPTION_KEY_FALLBACK is set: run `npx callsign keys reencrypt`/,
      );
    } finally {
      await again.stop();
    }
  });

  test(
    'WEB_CONCURRENCY=2 on PostgreSQL serves from two workers and stops on SIGTERM',
    { skip: !process.env.TEST_DATABASE_URL && 'cluster mode needs PostgreSQL (TEST_DATABASE_URL)' },
    async () => {
      const schema = `cli_${process.pid}`;
      const url = new URL(process.env.TEST_DATABASE_URL as string);
      spawnSync('psql', [
        url.toString(),
        '-c',
        `DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`,
      ]);
      url.searchParams.set('options', `-c search_path=${schema}`);
      const METRICS_TOKEN = 'metrics-token-for-the-cluster-0123';
      const ADMIN_TOKEN = 'admin-token-for-the-cluster-test-0123';
      const s = await start({
        ...baseEnv,
        DATABASE_URL: url.toString(),
        WEB_CONCURRENCY: '2',
        METRICS_TOKEN,
        ADMIN_TOKEN,
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', // the endpoint below is on 127.0.0.1 (D33)
      });
      try {
        assert.match(s.output(), /2 workers/);
        assert.ok(s.output().includes('storage:   PostgreSQL (DATABASE_URL)\n'), s.output());
        // P58: the banner warns when the server's autovacuum is off (as on the CI machines), and only then.
        const autovacuum = spawnSync(
          'psql',
          [process.env.TEST_DATABASE_URL as string, '-Atc', 'SHOW autovacuum'],
          {
            encoding: 'utf8',
          },
        );
        assert.equal(
          /warning: {3}PostgreSQL's autovacuum is off/.test(s.output()),
          autovacuum.stdout.trim() === 'off',
          s.output(),
        );
        const pid = s.child.pid as number;
        const workers = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ');
        assert.equal(workers.length, 2, 'the primary runs two workers');
        for (let i = 0; i < 5; i++) {
          const res = await fetch(`http://127.0.0.1:${s.port}/health`, { headers: { connection: 'close' } });
          assert.equal(res.status, 200);
        }
        // One delivery waiting: a test event to an endpoint nobody listens on, whose first attempt failed.
        const admin = (path: string, body: unknown) =>
          fetch(`http://127.0.0.1:${s.port}/admin/v1${path}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
        const endpoint = await (await admin('/webhook-endpoints', { url: 'http://127.0.0.1:9/hook' })).json();
        assert.equal((await admin(`/webhook-endpoints/${endpoint.id}/test`, {})).status, 202);
        // P75: whichever worker a scrape reaches, it counts the requests both answered.
        for (let i = 0; i < 2; i++) {
          const scraped = await fetch(`http://127.0.0.1:${s.port}/metrics`, {
            headers: { connection: 'close', authorization: `Bearer ${METRICS_TOKEN}` },
          });
          assert.equal(scraped.status, 200);
          const text = await scraped.text();
          assert.equal(
            sample(text, 'callsign_http_requests_total', { route: '/health', status: '200' }),
            5,
            text,
          );
          // Every worker counts the same pending delivery: gathered, it is one, not one per worker.
          assert.equal(sample(text, 'callsign_webhook_deliveries_pending', {}), 1, text);
        }
      } finally {
        s.child.kill('SIGTERM');
        assert.equal(await s.exited, 0);
        spawnSync('psql', [process.env.TEST_DATABASE_URL as string, '-c', `DROP SCHEMA ${schema} CASCADE`]);
      }
    },
  );

  test('serve with DATABASE_URL=memory:// says the data is in memory and writes nothing to DATA_DIR', async () => {
    const emptyDir = mkdtempSync(join(tmpdir(), 'callsign-memory-'));
    const s = await start({ ...baseEnv, DATA_DIR: emptyDir, DATABASE_URL: 'memory://' });
    try {
      assert.match(s.output(), /storage: {3}PGlite in memory \(DATABASE_URL=memory:\/\/\): nothing is kept/);
      assert.doesNotMatch(s.output(), /PostgreSQL/);
      assert.deepEqual(readdirSync(emptyDir), [], 'no PGlite files, no lock, no secrets file');
    } finally {
      assert.equal(await s.stop(), 0);
      rmSync(emptyDir, { recursive: true, force: true });
    }
  });

  const run = (...args: string[]) =>
    spawnSync(process.execPath, [BIN, ...args], {
      env: baseEnv,
      cwd: CHILD_CWD,
      encoding: 'utf8',
      timeout: 60_000,
    });

  test('--help, help and <command> --help start with Usage: and exit 0, starting nothing', () => {
    // The command as `npx callsign` runs it: the sources bundled first, then the bundle, with no TypeScript
    // loaded (a hook names each module the process loads, in a file: the hooks run on a thread of their own,
    // whose writes to stderr may not be out yet when the command exits).
    const hooks = mkdtempSync(join(tmpdir(), 'callsign-loads-'));
    const loadedList = join(hooks, 'loaded.txt');
    writeFileSync(
      join(hooks, 'hooks.mjs'),
      "import { appendFileSync } from 'node:fs';\n" +
        'export async function load(url, context, next) {\n' +
        `  if (url.startsWith('file:')) appendFileSync(${JSON.stringify(loadedList)}, 'loaded ' + url + '\\n');\n` +
        '  return next(url, context);\n}\n',
    );
    writeFileSync(
      join(hooks, 'register.mjs'),
      "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n",
    );
    const fromCommand = spawnSync(
      process.execPath,
      ['--import', join(hooks, 'register.mjs'), SOURCE_BIN, '--help'],
      { env: baseEnv, cwd: CHILD_CWD, encoding: 'utf8' },
    );
    const loadedText = existsSync(loadedList) ? readFileSync(loadedList, 'utf8') : '';
    rmSync(hooks, { recursive: true, force: true });
    assert.equal(fromCommand.status, 0, fromCommand.stderr);
    assert.match(fromCommand.stdout, /^Usage: callsign <command> \[options\]\n/);
    const loaded = [...loadedText.matchAll(/^loaded (\S+)$/gm)].map((m) => m[1]);
    assert.ok(
      loaded.some((url) => url.endsWith('/dist/callsign.mjs')),
      'the bundle ran',
    );
    assert.deepEqual(
      loaded.filter((url) => url.endsWith('.ts')),
      [],
      'no TypeScript is loaded',
    );
    for (const args of [['--help'], ['help'], ['-h']]) {
      const r = run(...args);
      assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stdout, /^Usage: callsign <command> \[options\]\n/, args.join(' '));
      assert.doesNotMatch(r.stdout, /listening on/, args.join(' '));
    }
    for (const args of [
      ['serve', '--help'],
      ['help', 'serve'],
    ]) {
      const r = run(...args);
      assert.equal(r.status, 0, args.join(' '));
      assert.match(r.stdout, /^Usage: callsign serve\n\n {2}serve +start the HTTP server/, args.join(' '));
      assert.doesNotMatch(r.stdout, /listening on/);
    }
    for (const args of [
      ['clients', 'create', '--help'],
      ['clients', '--help'],
      ['help', 'clients'],
    ]) {
      const r = run(...args);
      assert.equal(r.status, 0, args.join(' '));
      assert.match(r.stdout, /^Usage: callsign clients <action> \[options\]\n/, args.join(' '));
      assert.match(r.stdout, /clients create --name NAME/);
      assert.doesNotMatch(r.stdout, /webhooks create/, 'that command’s usage alone');
    }
  });

  test('a command that takes an action, named without one, prints its usage and exits 2', () => {
    for (const command of ['clients', 'webhooks', 'sms', 'kyc', 'messages', 'keys', 'api-keys', 'actions']) {
      const r = run(command);
      assert.equal(r.status, 2, command);
      assert.match(r.stderr, new RegExp(`^Usage: callsign ${command} <action> \\[options\\]\\n`), command);
    }
  });

  test('every option the operator docs name is in --help', () => {
    const help = run('--help').stdout;
    const docs = readdirSync('docs')
      .filter((f) => f.endsWith('.md') && !/decisions|benchmark/.test(f))
      .map((f) => readFileSync(`docs/${f}`, 'utf8'));
    // Lines that run node, npm, docker or the PostgreSQL tools, or set NODE_OPTIONS, name their options, not
    // callsign's.
    const lines = [readFileSync('README.md', 'utf8'), ...docs]
      .flatMap((text) => text.split('\n'))
      .filter(
        (line) => !/\b(node|npm|npx tsx|firebase|docker|pg_dump|pg_restore|psql)\s|NODE_OPTIONS=/.test(line),
      );
    const named = new Set(lines.flatMap((line) => line.match(/(?<![\w-])--[a-z][a-z0-9-]+/g) ?? []));
    const missing = [...named].filter((option) => option !== '--help' && !help.includes(option));
    assert.deepEqual(missing, []);
  });

  test('a port already in use says which variable to set', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    try {
      const port = (busy.address() as AddressInfo).port;
      const r = spawnSync(process.execPath, [BIN, 'serve'], {
        env: { ...baseEnv, PORT: String(port), DATABASE_URL: 'memory://' },
        cwd: CHILD_CWD,
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.equal(r.status, 1, r.stderr);
      assert.match(r.stderr, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use: .*set PORT`));
    } finally {
      busy.close();
    }
  });

  test('migrate: applies nothing twice', () => {
    const r = spawnSync(process.execPath, [BIN, 'migrate'], {
      env: baseEnv,
      cwd: CHILD_CWD,
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /up to date|applied/);
    const again = spawnSync(process.execPath, [BIN, 'migrate'], {
      env: baseEnv,
      cwd: CHILD_CWD,
      encoding: 'utf8',
    });
    assert.match(again.stdout, /database is up to date/);
  });

  test('a bad configuration stops the start with a message naming each bad variable', () => {
    const r = spawnSync(process.execPath, [BIN, 'serve'], {
      env: { ...baseEnv, PORT: 'eighty', APP_ENV: 'prod' },
      encoding: 'utf8',
    });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /PORT must be/);
    assert.match(r.stderr, /APP_ENV must be/);
  });
});
