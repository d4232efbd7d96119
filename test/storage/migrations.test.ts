import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, test } from 'node:test';
import { addSeconds } from '../../src/providers/clock.ts';
import { type Database, uniqueViolation } from '../../src/storage/db.ts';
import { migrate } from '../../src/storage/migrate.ts';
import { sessionsRepo } from '../../src/storage/repositories/sessions.ts';
import { freshDatabase, type TestDatabase } from '../helpers/database.ts';
import { housekeepingDay } from '../helpers/housekeeping.ts';

// An upgrade as an operator meets it: a database left by an earlier release, with its rows, then `migrate`.

const dir = new URL('../../src/storage/migrations/', import.meta.url);

const databases: TestDatabase[] = [];
after(() => Promise.all(databases.map((d) => d.drop())));

/** A database of its own with the schema as the release before migration `version` left it, recorded as `migrate` records it. */
async function migratedBefore(version: number): Promise<Database> {
  const database = await freshDatabase({ empty: true });
  databases.push(database);
  const { db } = database;
  await db.exec(`CREATE TABLE schema_migrations (
    version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
  for (const file of readdirSync(dir).sort()) {
    if (Number(file.slice(0, 3)) >= version) break;
    await db.exec(readFileSync(new URL(file, dir), 'utf8'));
    await db.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
      Number(file.slice(0, 3)),
      file,
    ]);
  }
  return db;
}

/** An account row as every release since 001 writes one (the columns added later have defaults). */
const insertAccount = (db: Database, id: string, phone: string, handle: string) =>
  db.query(
    `INSERT INTO users (id, phone, handle, country, pin_hash, created_at, updated_at)
     VALUES ($1, $2, $3, 'US', 'x', now(), now())`,
    [id, phone, handle],
  );

test('migration 009 ends the sessions of former refresh tokens; housekeeping removes them a day later', async () => {
  const db = await migratedBefore(9);
  const userId = '11111111-1111-4111-8111-111111111111';
  const sessionId = '22222222-2222-4222-8222-222222222222';
  await insertAccount(db, userId, '+16502345678', 'former');
  await db.query(
    `INSERT INTO sessions (id, user_id, client_id, platform, auth_time, created_at, last_used_at)
     VALUES ($1, $2, 'callsign', 'ios', now(), now(), now())`,
    [sessionId, userId],
  );
  await db.query(
    `INSERT INTO refresh_tokens (token_hash, session_id, client_id, issued_at, expires_at)
     VALUES ('h', $1, 'callsign', now(), now() + interval '30 days')`,
    [sessionId],
  );

  assert.equal((await migrate(db))[0], '009_refresh_chain.sql', 'applied from 009 on');
  const [row] = await db.query<{ refresh_hash: string; refresh_expires_at: Date; revoked_at: Date | null }>(
    'SELECT refresh_hash, refresh_expires_at, revoked_at FROM sessions WHERE id = $1',
    [sessionId],
  );
  assert.equal(row.refresh_hash, '', 'matches no token');
  assert.equal(row.revoked_at, null, 'ended, not revoked: no event to write');
  const now = new Date(row.refresh_expires_at.getTime() + 1000);
  assert.deepEqual(await sessionsRepo.listActive(db, userId, now, { limit: 100, offset: 0 }), []);
  assert.equal((await db.query("SELECT to_regclass('refresh_tokens') AS t"))[0].t, null);

  const counts = await housekeepingDay(db, addSeconds(now, 86400 + 1));
  assert.equal(counts.sessions, 1);
  assert.equal(
    (await db.query('SELECT 1 FROM users WHERE id = $1', [userId])).length,
    1,
    'the account stays',
  );
});

test('migration 011 keeps live phones, handles and e-mails unique and lets deleted accounts share them', async () => {
  const db = await migratedBefore(11);
  let n = 0;
  const user = (o: { phone?: string; handle?: string; email?: string; deleted?: boolean } = {}) =>
    db.query(
      `INSERT INTO users (id, phone, handle, email, country, pin_hash, created_at, updated_at, deleted_at)
       VALUES ($1, $2, $3, $4, 'US', 'x', now(), now(), $5)`,
      [
        `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
        o.phone ?? '+16502345678',
        o.handle ?? 'taken',
        o.email ?? 'a@example.com',
        o.deleted ? new Date() : null,
      ],
    );
  const refusedBy = (o: Parameters<typeof user>[0]) =>
    user(o).then(
      () => 'accepted',
      (err) => uniqueViolation(err),
    );
  // Before: two deleted accounts and a live one, all with the same phone, handle and e-mail.
  await user({ deleted: true });
  await user({ deleted: true });
  await user();

  assert.equal((await migrate(db))[0], '011_users_live_keys.sql', 'applied from 011 on');
  assert.equal(await refusedBy({ handle: 'other', email: 'b@example.com' }), 'users_phone_live');
  assert.equal(await refusedBy({ phone: '+16502345679', email: 'b@example.com' }), 'users_handle_live');
  assert.equal(
    await refusedBy({ phone: '+16502345679', handle: 'other', email: 'A@Example.com' }),
    'users_email_live',
  );
  assert.equal(
    await refusedBy({ phone: '+16502345679', handle: 'other', email: 'b@example.com', deleted: true }),
    'accepted',
  );
  // The live one deleted too: three deleted accounts share the keys, and a new live one may take them.
  await db.query("UPDATE users SET deleted_at = now() WHERE phone = '+16502345678' AND deleted_at IS NULL");
  assert.equal(await refusedBy({}), 'accepted');
});

test('migration 013 puts every account and code at PIN version 0; the release before can still issue codes', async () => {
  const db = await migratedBefore(13);
  const userId = '33333333-3333-4333-8333-333333333333';
  await insertAccount(db, userId, '+16502345679', 'earlier');
  // An authorization code as the release before writes one: it does not know the column.
  const issueAsBefore = (hash: string) =>
    db.query(
      `INSERT INTO authorization_codes (code_hash, client_id, user_id, redirect_uri, scope, code_challenge,
         auth_time, created_at, expires_at)
       VALUES ($1, 'rp', $2, 'https://rp.example/cb', 'openid', 'c', now(), now(), now() + interval '60 seconds')`,
      [hash, userId],
    );
  await issueAsBefore('before');
  assert.equal((await migrate(db))[0], '013_pin_version.sql', 'applied from 013 on');
  await issueAsBefore('during the upgrade');
  const [user] = await db.query<{ pin_version: number }>('SELECT pin_version FROM users WHERE id = $1', [
    userId,
  ]);
  assert.equal(user.pin_version, 0);
  const codes = await db.query<{ pin_version: number }>('SELECT pin_version FROM authorization_codes');
  assert.deepEqual(
    codes.map((c) => c.pin_version),
    [0, 0],
    "the account's version: its exchange opens a session",
  );
});

test('migration 014 has every key sign from its creation; a key the release before rotates in signs at once', async () => {
  const db = await migratedBefore(14);
  // Keys as the release before writes them: it does not know the column.
  const insertAsBefore = (kid: string, createdAt: string, retiredAt: string | null) =>
    db.query(
      `INSERT INTO signing_keys (kid, public_jwk, private_key_enc, created_at, retired_at, published_until)
       VALUES ($1, '{}', 'v1.x', $2, $3, $3::timestamptz + interval '1 hour')`,
      [kid, createdAt, retiredAt],
    );
  await insertAsBefore('retired', '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z');
  await insertAsBefore('signing', '2026-02-01T00:00:00Z', null);
  assert.equal((await migrate(db))[0], '014_signing_key_start.sql', 'applied from 014 on');
  await insertAsBefore('rotated during the upgrade', '2026-03-01T00:00:00Z', null);
  const rows = await db.query<{ kid: string; created_at: Date; signs_from: Date }>(
    'SELECT kid, created_at, signs_from FROM signing_keys ORDER BY created_at',
  );
  assert.deepEqual(
    rows.slice(0, 2).map((r) => [r.kid, r.signs_from.toISOString()]),
    [
      ['retired', '2026-01-01T00:00:00.000Z'],
      ['signing', '2026-02-01T00:00:00.000Z'],
    ],
  );
  const [{ now }] = await db.query<{ now: Date }>('SELECT now()');
  assert.ok(rows[2].signs_from.getTime() <= now.getTime(), 'the default: it signs at once, as it did');
});

test('migration 017 removes the consents of clients deleted before it, and only those', async () => {
  const db = await migratedBefore(17);
  const userId = '33333333-3333-4333-8333-333333333333';
  await insertAccount(db, userId, '+16502345679', 'consenter');
  for (const [id, deleted] of [
    ['gone', true],
    ['live', false],
  ] as const) {
    await db.query(
      `INSERT INTO clients (client_id, client_name, redirect_uris, grant_types, scope, token_endpoint_auth_method,
         created_at, deleted_at) VALUES ($1, $1, '[]', '[]', 'openid', 'none', now(), $2)`,
      [id, deleted ? new Date() : null],
    );
    await db.query(
      `INSERT INTO consents (user_id, client_id, scope, granted_at) VALUES ($1, $2, 'openid', now())`,
      [userId, id],
    );
  }
  assert.equal((await migrate(db))[0], '017_consents_of_deleted_clients.sql', 'applied from 017 on');
  const left = await db.query<{ client_id: string }>('SELECT client_id FROM consents WHERE user_id = $1', [
    userId,
  ]);
  assert.deepEqual(
    left.map((r) => r.client_id),
    ['live'],
  );
});
