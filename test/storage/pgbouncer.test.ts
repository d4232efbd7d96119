import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Database, postgresDatabase } from '../../src/storage/db.ts';
import { migrate } from '../../src/storage/migrate.ts';
import { createTestApp, signUp, type TestApp, uniqueIp } from '../helpers/app.ts';
import { TEST_DATABASE_URL } from '../helpers/database.ts';
import { freePort } from '../helpers/free-port.ts';

// The service behind PgBouncer (Debian's package) in transaction mode, the mode every managed pooler uses:
// each transaction, and each statement outside one, may run on another server connection, so the service
// keeps nothing on a connection (DATABASE_POOLER=transaction). Runs where PostgreSQL does (TEST_DATABASE_URL);
// .ci/run installs PgBouncer.

const hasPgbouncer = spawnSync('sh', ['-c', 'command -v pgbouncer']).status === 0;
const skip = !TEST_DATABASE_URL || !hasPgbouncer ? 'needs TEST_DATABASE_URL and pgbouncer' : false;

/** PgBouncer on a port of its own in front of one database, two server connections for every client. */
async function startPgbouncer(server: URL, database: string) {
  const dir = mkdtempSync(join(tmpdir(), 'callsign-pgbouncer-'));
  chmodSync(dir, 0o755);
  const port = await freePort();
  const user = decodeURIComponent(server.username) || 'postgres';
  const ini = join(dir, 'pgbouncer.ini');
  writeFileSync(join(dir, 'users.txt'), `"${user}" ""\n`);
  writeFileSync(
    ini,
    [
      '[databases]',
      `${database} = host=${server.hostname} port=${server.port || 5432} dbname=${database}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'auth_type = trust',
      `auth_file = ${join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      'default_pool_size = 2',
      'max_client_conn = 100',
      'unix_socket_dir =',
    ].join('\n'),
  );
  for (const file of ['users.txt', 'pgbouncer.ini']) chmodSync(join(dir, file), 0o644);
  // PgBouncer will not run as root: as root, it is told to become postgres.
  const asRoot = process.getuid?.() === 0 ? ['-u', 'postgres'] : [];
  const child = spawn('pgbouncer', [...asRoot, ini], { stdio: ['ignore', 'ignore', 'pipe'] });
  let said = '';
  child.stderr?.on('data', (chunk) => {
    said += chunk;
  });
  for (let i = 0; i < 100 && !said.includes('process up'); i++) await new Promise((r) => setTimeout(r, 50));
  assert.match(said, /process up/, said);
  const url = new URL(server);
  url.port = String(port);
  url.hostname = '127.0.0.1';
  url.pathname = `/${database}`;
  return { url: url.toString(), child, dir };
}

describe('behind PgBouncer in transaction mode', { skip }, () => {
  const database = `callsign_pgb_${randomBytes(4).toString('hex')}`;
  let admin: Database;
  let pgbouncer: { url: string; child: ChildProcess; dir: string };
  let db: Database;
  let t: TestApp;
  before(async () => {
    const server = new URL(TEST_DATABASE_URL as string);
    admin = postgresDatabase(server.toString(), { max: 1 });
    await admin.exec(`CREATE DATABASE ${database}`);
    pgbouncer = await startPgbouncer(server, database);
    db = postgresDatabase(pgbouncer.url, { pooler: 'transaction', max: 8 });
    await migrate(db);
    t = await createTestApp({ database: db, env: { DATABASE_POOLER: 'transaction' } });
  });
  after(async () => {
    await t?.close();
    await db?.close();
    pgbouncer?.child.kill('SIGINT');
    await new Promise((r) => setTimeout(r, 200));
    await admin?.exec(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin?.close();
    rmSync(pgbouncer?.dir ?? '', { recursive: true, force: true });
  });

  test('sign-ups, sign-ins and refreshes at once, over two server connections: every one answers', async () => {
    const accounts = await Promise.all(Array.from({ length: 6 }, () => signUp(t)));
    const answers = await Promise.all(
      accounts.flatMap((s) => [
        t.request('POST', '/auth/signin', { body: { phone: s.phone, pin: s.pin }, ip: uniqueIp() }),
        t.request('POST', '/auth/refresh', { body: { refresh_token: s.refresh_token } }),
        t.request('GET', '/users/me', { token: s.access_token }),
      ]),
    );
    assert.deepEqual(
      answers.map((a) => a.status),
      answers.map(() => 200),
    );
  });

  test('named statements, as without DATABASE_POOLER, break there: the setting is what makes it work', async () => {
    const named = postgresDatabase(pgbouncer.url, { max: 8 });
    try {
      const tries = await Promise.allSettled(
        Array.from({ length: 24 }, (_, i) =>
          named.query('SELECT count(*) AS n FROM users WHERE phone <> $1', [`${i}`]),
        ),
      );
      const broken = tries.filter((r) => r.status === 'rejected').map((r) => String(r.reason));
      assert.ok(
        broken.some((e) => /prepared statement .* (already exists|does not exist)/.test(e)),
        broken.join('\n'),
      );
    } finally {
      await named.close();
    }
  });
});
