import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { isDatabaseUnavailable } from '../../src/storage/database-errors.ts';
import { type Database, postgresDatabase } from '../../src/storage/db.ts';
import { migrate } from '../../src/storage/migrate.ts';
import { createTestApp, signUp, type TestApp, uniqueIp, uniquePhone } from '../helpers/app.ts';
import { TEST_DATABASE_URL } from '../helpers/database.ts';
import {
  ADMIN_TOKEN,
  authorizationParams,
  pkce,
  postPageForm,
  registerClient,
  signInForm,
} from '../helpers/oauth.ts';

// A database that cannot take writes for now, as a primary is after a failover demoted it (or a standby
// answering in its place): every surface answers 503 with Retry-After, never 500; /health/ready takes the
// instance out until it can write again. On PostgreSQL the database becomes read-only and its connections are
// cut, as a failover cuts them; on PGlite its one connection turns read-only.

describe('a database that cannot take writes', () => {
  let t: TestApp;
  let own: { admin: Database; name: string; db: Database } | undefined;
  before(async () => {
    if (TEST_DATABASE_URL) {
      const name = `callsign_ro_${randomBytes(4).toString('hex')}`;
      const admin = postgresDatabase(TEST_DATABASE_URL, { max: 1 });
      await admin.exec(`CREATE DATABASE ${name}`);
      const url = new URL(TEST_DATABASE_URL);
      url.pathname = `/${name}`;
      const db = postgresDatabase(url.toString(), { max: 4 });
      await migrate(db);
      own = { admin, name, db };
    }
    t = await createTestApp({ database: own?.db, env: { ADMIN_TOKEN } });
  });
  after(async () => {
    await t?.close();
    if (!own) return;
    await own.db.close();
    await own.admin.exec(`DROP DATABASE IF EXISTS ${own.name} WITH (FORCE)`);
    await own.admin.close();
  });

  /** Writes refused from now on; `false` gives them back. */
  async function readOnly(on: boolean) {
    if (!own) return t.c.db.exec(`SET default_transaction_read_only = ${on ? 'on' : 'off'}`);
    await own.admin.exec(
      `ALTER DATABASE ${own.name} SET default_transaction_read_only = ${on ? 'on' : 'off'}`,
    );
    // A failover ends every connection; the pool opens new ones, which read the database's new setting.
    await own.admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [
      own.name,
    ]);
  }

  const send = () =>
    t.request('POST', '/auth/otp/send', {
      body: { phone: uniquePhone(), purpose: 'signup' },
      ip: uniqueIp(),
    });

  test('every surface answers 503 with Retry-After, never 500; ready says so; then all comes back', async () => {
    assert.equal((await send()).status, 200);
    const client = await registerClient(t);
    const s = await signUp(t);
    const form = await signInForm(t, authorizationParams(client.client_id, pkce().challenge));
    await readOnly(true);
    try {
      // The first statement on a cut connection may fail as the connection's loss: that too is a 503.
      const rest = await send();
      assert.equal(rest.status, 503, JSON.stringify(rest.body));
      assert.equal(rest.body.error.code, 'SERVICE_UNAVAILABLE');
      assert.equal(rest.headers['retry-after'], '5');
      const again = await send();
      assert.equal(again.status, 503);

      const admin = await t.request('POST', '/admin/v1/api-keys', {
        token: ADMIN_TOKEN,
        body: { name: 'x' },
      });
      assert.equal(admin.status, 503, JSON.stringify(admin.body));
      assert.equal(admin.headers['retry-after'], '5');

      // A hosted sign-in takes a PIN attempt, a write.
      const page = await postPageForm(t, '/authorize/signin', form.csrf, {
        state: form.state,
        phone: s.phone,
        pin: s.pin,
      });
      assert.equal(page.status, 503);
      assert.equal(page.headers['retry-after'], '5');
      assert.match(String(page.headers['content-type']), /text\/html/);

      const ready = await t.request('GET', '/health/ready');
      assert.equal(ready.status, 503);
      assert.deepEqual(ready.body.failing, ['database']);
      // The log says why each was refused, in the database's words.
      const said = t.logs.filter((line) => line.includes('the database could not take the request'));
      assert.ok(said.length >= 3, `${said.length} lines`);
      assert.match(said[0], /"cause":"[^"]*(read-only|terminat|Connection)/);
    } finally {
      await readOnly(false);
    }
    const back = (await send()).status === 200 ? 200 : (await send()).status;
    assert.equal(back, 200);
    assert.equal((await t.request('GET', '/health/ready')).status, 200);
  });

  test('what counts as a database out of reach', () => {
    const pgError = (code: string) => Object.assign(new Error('x'), { code });
    for (const code of ['25006', '57P01', '57P03', '08006', 'ECONNREFUSED'])
      assert.equal(isDatabaseUnavailable(pgError(code)), true, code);
    assert.equal(isDatabaseUnavailable(new Error('Connection terminated unexpectedly')), true);
    for (const code of ['23505', '42P01', '40001'])
      assert.equal(isDatabaseUnavailable(pgError(code)), false, code);
    assert.equal(isDatabaseUnavailable('08006'), false);
  });
});
