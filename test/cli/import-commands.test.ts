import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { usersCommand } from '../../src/cli/user-commands.ts';
import { type Config, loadConfig } from '../../src/config/config.ts';
import { createTestApp, type TestApp, uniquePhone } from '../helpers/app.ts';
import { CLI_ADMIN_TOKEN, startCliServer } from '../helpers/cli-server.ts';

// `callsign users import FILE --format firebase|supabase|jsonl`: each source's export read as its vendor
// writes it, sent to a running server's admin API, the report's line numbers the file's.

describe('callsign users import', () => {
  let t: TestApp;
  let config: Config;
  let dir: string;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN: CLI_ADMIN_TOKEN } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    config = loadConfig({ CALLSIGN_ADMIN_URL: base, ADMIN_TOKEN: CLI_ADMIN_TOKEN });
    dir = mkdtempSync(join(tmpdir(), 'callsign-import-'));
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const userOf = async (phone: string) =>
    (await t.c.db.query<Record<string, unknown>>('SELECT * FROM users WHERE phone = $1', [phone]))[0];

  test('firebase: `firebase auth:export --format=json`; users without a phone are skipped', async () => {
    const [ada, locked] = [uniquePhone(), uniquePhone()];
    const exported = {
      users: [
        {
          localId: 'fbA1',
          phoneNumber: ada,
          displayName: 'Ada',
          createdAt: '1700000000000',
          lastSignedInAt: '1700000100000',
          disabled: false,
          customAttributes: '{"role":"admin"}',
        },
        { localId: 'fbB2', email: 'b@example.com', emailVerified: true, createdAt: '1700000000000' },
        { localId: 'fbC3', phoneNumber: locked, disabled: true, createdAt: '1700000000000' },
      ],
    };
    const out = await usersCommand(config, [
      'users',
      'import',
      file('fb.json', JSON.stringify(exported)),
      '--format',
      'firebase',
      '--json',
    ]);
    assert.deepEqual(JSON.parse(out), {
      imported: 2,
      skipped: [{ line: 2, reason: 'no_phone' }],
      failed: [],
    });
    const user = await userOf(ada);
    assert.equal(user.external_id, 'fbA1');
    assert.equal(user.name, 'Ada');
    assert.equal((user.created_at as Date).toISOString(), new Date(1_700_000_000_000).toISOString());
    assert.deepEqual(user.metadata, { role: 'admin' });
    assert.ok((await userOf(locked)).admin_locked_at);
  });

  test('supabase: auth.users rows as JSON Lines; unconfirmed, phoneless and deleted rows are skipped', async () => {
    const [bo, banned, unconfirmed] = [uniquePhone(), uniquePhone(), uniquePhone()];
    const id = '0b6f8a52-3c1d-4e2f-8a9b-7c6d5e4f3a21';
    const rows = [
      {
        id,
        phone: bo.slice(1),
        phone_confirmed_at: '2024-01-01T00:00:00Z',
        raw_user_meta_data: { full_name: 'Bo' },
        created_at: '2024-01-01T00:00:00Z',
        banned_until: null,
        deleted_at: null,
      },
      { id: 'b2', phone: unconfirmed.slice(1), phone_confirmed_at: null },
      { id: 'b3', phone: '', email: 'c@example.com' },
      {
        id: 'b4',
        phone: uniquePhone().slice(1),
        phone_confirmed_at: '2024-01-01T00:00:00Z',
        deleted_at: '2024-06-01T00:00:00Z',
      },
      {
        id: 'b5',
        phone: banned.slice(1),
        phone_confirmed_at: '2024-01-01T00:00:00Z',
        banned_until: '2999-01-01T00:00:00Z',
      },
    ];
    const out = await usersCommand(config, [
      'users',
      'import',
      file('sb.jsonl', rows.map((r) => JSON.stringify(r)).join('\n')),
      '--format',
      'supabase',
    ]);
    assert.equal(out, 'imported 2, skipped 3 (phone_not_confirmed: 1, no_phone: 1, deleted: 1), failed 0');
    const user = await userOf(bo);
    assert.equal(user.id, id);
    assert.equal(user.name, 'Bo');
    assert.deepEqual(user.metadata, { full_name: 'Bo' });
    assert.ok((await userOf(banned)).admin_locked_at, 'a ban still running imports the account locked');
  });

  test('jsonl over 10,000 lines goes in requests of 10,000; a failed line is named by its line in the file', async () => {
    const lines = Array.from({ length: 10_050 }, (_, i) =>
      JSON.stringify({ phone: i === 10_039 ? 'nope' : uniquePhone() }),
    );
    const out = JSON.parse(
      await usersCommand(config, [
        'users',
        'import',
        file('big.jsonl', lines.join('\n')),
        '--format',
        'jsonl',
        '--json',
        '--dry-run',
      ]),
    );
    assert.equal(out.imported, 10_049);
    assert.deepEqual(
      out.failed.map((f: { line: number }) => f.line),
      [10_040],
    );
    const [{ n }] = await t.c.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
    assert.equal(n < 10_000, true, 'a dry run keeps nothing');
  });

  test('an unknown format is named', async () => {
    await assert.rejects(
      usersCommand(config, ['users', 'import', file('x.json', '{}'), '--format', 'auth0']),
      /--format must be one of firebase, supabase, jsonl/,
    );
  });
});

describe('callsign users import, as an operator runs it', () => {
  test('the command against a running server prints the summary', async () => {
    const s = await startCliServer('import');
    const dir = mkdtempSync(join(tmpdir(), 'callsign-import-cli-'));
    try {
      const path = join(dir, 'users.jsonl');
      writeFileSync(path, `${JSON.stringify({ phone: '+14155550142', name: 'Ada' })}\n{oops\n`);
      const run = s.cli('users', 'import', path, '--format', 'jsonl');
      assert.equal(run.code, 0, run.err);
      assert.equal(run.out, 'imported 1, skipped 0, failed 1\n  line 2: not valid JSON\n');
    } finally {
      await s.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
