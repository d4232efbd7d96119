import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SessionRotations } from '../../src/storage/batches/session-rotations.ts';
import type { Rotation, RotationOutcome } from '../../src/storage/rules/refresh-rotation.ts';
import { createTestApp, openSessions, signUp, type TestApp } from '../helpers/app.ts';
import { countingStatements, TEST_DATABASE_URL, whileRefusing } from '../helpers/database.ts';

// P79: the rotations of one process that arrive together are written in one statement, and each is answered
// as a rotation of its own (D16) would be.

/** The session a rotation moved, or undefined when it moved nothing. */
const movedSession = (o: RotationOutcome) => (o.rotated ? o.session : undefined);

describe('refresh-token rotations written in batches', () => {
  let t: TestApp;
  let userId: string;
  before(async () => {
    t = await createTestApp();
    userId = (await signUp(t)).user.id;
  });
  after(() => t.close());

  /** The rotation of a session's live head, as the session service would ask for it. */
  async function headOf(id: string): Promise<Rotation> {
    const [s] = await t.c.db.query<{ client_id: string; refresh_generation: number; refresh_hash: string }>(
      'SELECT client_id, refresh_generation, refresh_hash FROM sessions WHERE id = $1',
      [id],
    );
    const now = t.clock.now();
    return {
      id,
      clientId: s.client_id,
      dpopJkt: null,
      generation: s.refresh_generation,
      hash: s.refresh_hash,
      nextHash: `next-${s.refresh_generation + 1}-${id}`,
      now,
      expiresAt: new Date(now.getTime() + 86_400_000),
    };
  }

  const generationOf = async (id: string) =>
    (
      await t.c.db.query<{ refresh_generation: number; refresh_hash: string }>(
        'SELECT refresh_generation, refresh_hash FROM sessions WHERE id = $1',
        [id],
      )
    )[0];

  test('twelve rotations of twelve sessions arriving together are one statement; each moves its own chain', async () => {
    const ids = await openSessions(t, userId, 12);
    const { db, sent } = countingStatements(t.c.db);
    const rotations = new SessionRotations(db);
    const asked = await Promise.all(ids.map(headOf));
    const answers = (await Promise.all(asked.map((r) => rotations.rotate(r)))).map(movedSession);
    assert.equal(sent.length, 1, 'one statement for all twelve');
    for (const [i, id] of ids.entries()) {
      // The session's sign-in comes back with it, for the tokens a refresh issues.
      const [signIn] = await t.c.db.query('SELECT auth_time, amr FROM sessions WHERE id = $1', [id]);
      assert.deepEqual(answers[i], {
        id,
        user_id: userId,
        scope: 'openid profile phone email kyc',
        ...signIn,
      });
      assert.deepEqual(await generationOf(id), { refresh_generation: 1, refresh_hash: asked[i].nextHash });
    }
  });

  test('the same token twice in one batch moves its chain once, and both are answered with the session', async () => {
    const [id] = await openSessions(t, userId, 1);
    const rotations = new SessionRotations(t.c.db);
    const r = await headOf(id);
    const [a, b] = (await Promise.all([rotations.rotate(r), rotations.rotate({ ...r })])).map(movedSession);
    assert.equal(a?.id, id);
    assert.equal(b?.id, id);
    assert.deepEqual(await generationOf(id), { refresh_generation: 1, refresh_hash: r.nextHash });
  });

  test('a stale token beside its session head in one batch: the head moves, the stale one moves nothing', async () => {
    const [id] = await openSessions(t, userId, 1);
    const rotations = new SessionRotations(t.c.db);
    const stale = await headOf(id);
    await rotations.rotate(stale);
    const head = await headOf(id);
    const [fromStale, fromHead] = (await Promise.all([rotations.rotate(stale), rotations.rotate(head)])).map(
      movedSession,
    );
    assert.equal(fromStale, undefined);
    assert.equal(fromHead?.id, id);
    assert.deepEqual(await generationOf(id), { refresh_generation: 2, refresh_hash: head.nextHash });
  });

  test('the same token from another client in one batch moves nothing for that client', async () => {
    const [id] = await openSessions(t, userId, 1);
    const rotations = new SessionRotations(t.c.db);
    const r = await headOf(id);
    const [theirs, ours] = (
      await Promise.all([rotations.rotate({ ...r, clientId: 'another-client' }), rotations.rotate(r)])
    ).map(movedSession);
    assert.equal(theirs, undefined);
    assert.equal(ours?.id, id);
    assert.deepEqual(await generationOf(id), { refresh_generation: 1, refresh_hash: r.nextHash });
  });

  test('a batch that fails is run again one rotation at a time: only the rotation that cannot succeed fails', async () => {
    const [bad, ...good] = await openSessions(t, userId, 3);
    await whileRefusing(t.c.db, 'sessions', 'UPDATE', `OLD.id = '${bad}'`, async () => {
      const { db, sent } = countingStatements(t.c.db);
      const rotations = new SessionRotations(db);
      const asked = await Promise.all([bad, ...good].map(headOf));
      const [failed, ...rotated] = await Promise.allSettled(asked.map((r) => rotations.rotate(r)));
      assert.equal(failed.status, 'rejected');
      assert.deepEqual(
        rotated.map((r) => r.status === 'fulfilled' && movedSession(r.value)?.id),
        good,
      );
      assert.equal(sent.length, 4, 'the batch, then each on its own');
    });
  });

  test(
    'a session whose row another transaction holds waits alone; the rest of its batch goes on (PostgreSQL)',
    { skip: !TEST_DATABASE_URL && 'PGlite has one connection: no transaction holds a row meanwhile' },
    async () => {
      const [held, free] = await openSessions(t, userId, 2);
      const rotations = new SessionRotations(t.c.db);
      const [heldRotation, freeRotation] = await Promise.all([held, free].map(headOf));
      let heldAnswer: Promise<unknown> | undefined;
      let heldSettled = false;
      await t.c.db.transaction(async (tx) => {
        // As a revocation of that session would, while it is being written.
        await tx.query('SELECT 1 FROM sessions WHERE id = $1 FOR UPDATE', [held]);
        heldAnswer = rotations.rotate(heldRotation).finally(() => {
          heldSettled = true;
        });
        const freeAnswer = rotations.rotate(freeRotation);
        // Without SKIP LOCKED the batch would wait for this transaction, which waits for the batch.
        const first = await Promise.race([
          freeAnswer,
          new Promise((resolve) => setTimeout(() => resolve('stuck'), 5000)),
        ]);
        assert.notEqual(first, 'stuck', 'the free session is not held up by the other');
        assert.equal(movedSession(first as RotationOutcome)?.id, free);
        assert.equal(heldSettled, false, 'the held session waits for the lock');
      });
      assert.equal(
        movedSession((await heldAnswer) as RotationOutcome)?.id,
        held,
        'and moves once the lock is gone',
      );
    },
  );
});
