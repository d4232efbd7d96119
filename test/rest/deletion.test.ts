import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, events, signUp, type TestApp, uniqueIp, unrevokedSessions } from '../helpers/app.ts';
import { signInHeldAtPinCheck } from '../helpers/pin-gate.ts';

describe('DELETE /users/me and the 30-day purge', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'signin_phone=1000/900' } });
  });
  after(() => t.close());

  const del = (token: string, body: unknown) => t.request('DELETE', '/users/me', { token, body });
  const CONFIRM = 'DELETE MY ACCOUNT';

  test('a wrong phrase is INVALID_REQUEST and a wrong PIN INVALID_CREDENTIALS; nothing is deleted', async () => {
    const s = await signUp(t);
    const phrase = await del(s.access_token, { pin: s.pin, confirmation: 'delete my account' });
    assert.equal(phrase.status, 400);
    assert.equal(phrase.body.error.code, 'INVALID_REQUEST');
    assert.equal(phrase.body.error.details.field, 'confirmation');
    const pin = await del(s.access_token, { pin: '918273', confirmation: CONFIRM });
    assert.equal(pin.status, 401);
    assert.equal(pin.body.error.code, 'INVALID_CREDENTIALS');
    assert.equal((await t.request('GET', '/users/me', { token: s.access_token })).status, 200);
  });

  test('wrong PINs on deletion count toward the lock; a wrong phrase, checked first, costs none', async () => {
    const s = await signUp(t);
    for (let i = 0; i < 10; i++)
      assert.equal(
        (await del(s.access_token, { pin: '918273', confirmation: 'yes' })).body.error.code,
        'INVALID_REQUEST',
      );
    for (let i = 0; i < 9; i++)
      assert.equal(
        (await del(s.access_token, { pin: '918273', confirmation: CONFIRM })).body.error.code,
        'INVALID_CREDENTIALS',
        `wrong PIN ${i + 1}`,
      );
    const tenth = await del(s.access_token, { pin: '918273', confirmation: CONFIRM });
    assert.equal(tenth.body.error.code, 'ACCOUNT_LOCKED');
    assert.equal(
      (await del(s.access_token, { pin: s.pin, confirmation: CONFIRM })).body.error.code,
      'ACCOUNT_LOCKED',
    );
  });

  test('race: an account deleted while a sign-in checks its PIN gives that sign-in no session', async () => {
    const s = await signUp(t);
    const signingIn = await signInHeldAtPinCheck(t, s); // the attempt is counted, the PIN not yet checked
    assert.equal((await del(s.access_token, { pin: s.pin, confirmation: CONFIRM })).status, 200);
    signingIn.release();
    const res = await signingIn.answer;
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, 'INVALID_CREDENTIALS', 'as for any phone without an account');
    assert.equal(await unrevokedSessions(t, s.user.id), 0);
  });

  test('deletion end to end: unusable at once, events, phone and handle free, purge after 30 days', async () => {
    const s = await signUp(t);
    const second = await t.request('POST', '/auth/signin', {
      body: { phone: s.phone, pin: s.pin },
      ip: uniqueIp(),
    });
    const res = await del(s.access_token, { pin: s.pin, confirmation: CONFIRM });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.deleted, true);
    assert.equal(Date.parse(res.body.data.hard_delete_at), t.clock.now().getTime() + 30 * 86400_000);

    // Unusable at once: every session and token, sign-in, public profile.
    for (const token of [s.access_token, second.body.data.access_token]) {
      assert.equal((await t.request('GET', '/users/me', { token })).status, 401);
    }
    assert.equal(
      (await t.request('POST', '/auth/refresh', { body: { refresh_token: s.refresh_token } })).body.error
        .code,
      'INVALID_REFRESH_TOKEN',
    );
    assert.equal(
      (await t.request('POST', '/auth/signin', { body: { phone: s.phone, pin: s.pin } })).body.error.code,
      'INVALID_CREDENTIALS',
    );
    assert.equal((await t.request('GET', `/users/@${s.handle}`)).status, 404);

    const revoked = (await events(t, 'session.revoked')).filter((e) => e.data.user_id === s.user.id);
    assert.equal(revoked.length, 2);
    assert.ok(revoked.every((e) => e.data.reason === 'account_deleted'));
    const deleted = (await events(t, 'user.deleted')).filter((e) => e.data.user_id === s.user.id);
    assert.deepEqual(
      deleted.map((e) => e.data),
      [{ user_id: s.user.id, deleted_at: t.clock.now().toISOString() }],
    );

    // Phone and handle are free at once: a new account takes both.
    const again = await signUp(t, { phone: s.phone, handle: s.handle });
    assert.notEqual(again.user.id, s.user.id);
    assert.equal((await t.request('GET', `/users/@${s.handle}`)).body.data.id, again.user.id);

    // Not before 30 days...
    t.clock.advance(30 * 86400 - 60);
    await t.c.worker.tick();
    assert.equal((await t.c.db.query('SELECT 1 FROM users WHERE id = $1', [s.user.id])).length, 1);
    // ...and then every row of the account goes, but not the new account's.
    t.clock.advance(3600);
    assert.ok((await t.c.worker.tick()).includes('purge-deleted-accounts'));
    assert.equal((await t.c.db.query('SELECT 1 FROM users WHERE id = $1', [s.user.id])).length, 0);
    assert.equal((await t.c.db.query('SELECT 1 FROM sessions WHERE user_id = $1', [s.user.id])).length, 0);
    const oldCodes = await t.c.db.query('SELECT 1 FROM otps WHERE phone = $1 AND created_at <= $2', [
      s.phone,
      new Date(Date.parse(deleted[0].data.deleted_at as string)),
    ]);
    assert.equal(oldCodes.length, 0, "the old account's codes are gone");
    assert.equal((await t.c.db.query('SELECT 1 FROM users WHERE id = $1', [again.user.id])).length, 1);
  });
});
