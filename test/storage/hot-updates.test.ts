import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Queryable } from '../../src/storage/db.ts';
import { usersRepo } from '../../src/storage/repositories/users.ts';
import { clearPinFailures, takePinAttempt } from '../../src/storage/rules/pin-lock.ts';
import { rotateRefreshToken } from '../../src/storage/rules/refresh-rotation.ts';
import { createTestApp, openSessions, type TestApp } from '../helpers/app.ts';

// Migration 009 (sessions) and P81 (users): the rows rewritten on every refresh and every sign-in keep room on
// their page, so the new version stays beside the old one (a HOT update: no index written, no VACUUM needed).
// Checked on the last row written to a table's first page, which is full when the table keeps no room.

/** The page (block number) a row is on. */
const pageOf = async (q: Queryable, table: 'users' | 'sessions', id: string) =>
  Number(
    (
      await q.query<{ page: number }>(`SELECT (ctid::text::point)[0] AS page FROM ${table} WHERE id = $1`, [
        id,
      ])
    )[0].page,
  );

/** The id of the last row written to the table's first page, once more than a page has been written. */
const lastOnFirstPage = async (q: Queryable, table: 'users' | 'sessions') =>
  (
    await q.query<{ id: string }>(
      `SELECT id FROM ${table} WHERE (ctid::text::point)[0] = 0 ORDER BY (ctid::text::point)[1] DESC LIMIT 1`,
    )
  )[0].id;

describe('rows rewritten on every sign-in and refresh stay on their page (migration 009)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  let users = 0;
  /** An account written straight into the table (no PIN is checked here), with an id of its own. */
  const insertUser = async () => {
    const i = users++;
    return usersRepo.insert(t.c.db, {
      id: randomUUID(),
      phone: `+1650555${String(i).padStart(4, '0')}`,
      handle: `hot_${i}`,
      name: null,
      country: 'US',
      pinHash: `$argon2id$v=19$m=19456,t=2,p=1$${'s'.repeat(22)}$${'h'.repeat(43)}`,
      now: t.clock.now(),
    });
  };

  test('users: a sign-in attempt and its reset leave the account on its page', async () => {
    const now = t.clock.now();
    for (let i = 0; i < 120; i++) await insertUser();
    const id = await lastOnFirstPage(t.c.db, 'users');
    const attempt = await takePinAttempt(t.c.db, { id }, now);
    assert.equal(attempt.taken, true);
    assert.equal(await pageOf(t.c.db, 'users', id), 0, 'the attempt');
    await clearPinFailures(t.c.db, id);
    assert.equal(await pageOf(t.c.db, 'users', id), 0, 'the reset');
  });

  test('sessions: a refresh-token rotation leaves the session on its page', async () => {
    const user = await insertUser();
    await openSessions(t, user.id, 80);
    const id = await lastOnFirstPage(t.c.db, 'sessions');
    const [head] = await t.c.db.query<{
      client_id: string;
      refresh_generation: number;
      refresh_hash: string;
    }>('SELECT client_id, refresh_generation, refresh_hash FROM sessions WHERE id = $1', [id]);
    const now = t.clock.now();
    const moved = await rotateRefreshToken(t.c.db, {
      id,
      clientId: head.client_id,
      dpopJkt: null,
      generation: head.refresh_generation,
      hash: head.refresh_hash,
      nextHash: 'n'.repeat(43),
      now,
      expiresAt: new Date(now.getTime() + 86_400_000),
    });
    assert.equal(moved.rotated && moved.session.id, id);
    assert.equal(await pageOf(t.c.db, 'sessions', id), 0);
  });
});
