import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { addSeconds } from '../../src/providers/clock.ts';
import { migrate } from '../../src/storage/migrate.ts';
import { sessionsRepo } from '../../src/storage/repositories/sessions.ts';
import { housekeeping } from '../../src/workers/housekeeping.ts';
import { freshDatabase, type TestDatabase } from '../helpers/database.ts';

// An upgrade as an operator meets it: a database left by an earlier release, with its rows, then `migrate`.

const dir = new URL('../../src/storage/migrations/', import.meta.url);

let database: TestDatabase;
before(async () => {
  database = await freshDatabase({ empty: true });
});
after(() => database.drop());

/** The schema as the release before migration `version` left it, recorded as `migrate` records it. */
async function migrateBefore(version: number) {
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
}

test('P59: migration 009 ends the sessions of former refresh tokens; housekeeping removes them a day later', async () => {
  const { db } = database;
  await migrateBefore(9);
  const userId = '11111111-1111-4111-8111-111111111111';
  const sessionId = '22222222-2222-4222-8222-222222222222';
  await db.query(
    `INSERT INTO users (id, phone, handle, country, pin_hash, created_at, updated_at)
     VALUES ($1, '+16502345678', 'former', 'US', 'x', now(), now())`,
    [userId],
  );
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
  assert.deepEqual(await sessionsRepo.listActive(db, userId, now), []);
  assert.equal((await db.query("SELECT to_regclass('refresh_tokens') AS t"))[0].t, null);

  const counts = await housekeeping(db).run(addSeconds(now, 86400 + 1));
  assert.equal(counts.sessions, 1);
  assert.equal(
    (await db.query('SELECT 1 FROM users WHERE id = $1', [userId])).length,
    1,
    'the account stays',
  );
});
