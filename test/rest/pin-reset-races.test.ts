import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { usersRepo } from '../../src/storage/repositories/users.ts';
import {
  createTestApp,
  type SignedUp,
  signUp,
  type TestApp,
  uniqueIp,
  uniquePhone,
  unrevokedSessions,
  verifiedTempToken,
} from '../helpers/app.ts';
import { heldAtPinCheck, signInHeldAtPinCheck } from '../helpers/pin-gate.ts';

// P88: a PIN check proves the PIN the account had when it was read. A reset (D10) that commits while the
// check runs must leave the old PIN proving nothing: no session, no deletion, no move to another number.
describe('what an old PIN was checked for is refused once a PIN reset commits', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'signin_phone=1000/900' } });
  });
  after(() => t.close());

  const NEW_PIN = '204913';
  /** A PIN reset of this account, through HTTP; answers its session's access token. */
  const resetPin = async (s: SignedUp) => {
    const temp_token = await verifiedTempToken(t, s.phone, 'pin_reset');
    const res = await t.request('POST', '/auth/pin/reset', { body: { temp_token, pin: NEW_PIN } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data.access_token as string;
  };
  const signin = (phone: string, pin: string) =>
    t.request('POST', '/auth/signin', { body: { phone, pin }, ip: uniqueIp() });
  const deletionHeldAtPinCheck = (s: SignedUp) =>
    heldAtPinCheck(() =>
      t.request('DELETE', '/users/me', {
        token: s.access_token,
        body: { pin: s.pin, confirmation: 'DELETE MY ACCOUNT' },
      }),
    );
  const assertWrongPin = (res: { status: number; body: { error: { code: string } } }) => {
    assert.equal(res.status, 401, JSON.stringify(res.body));
    assert.equal(res.body.error.code, 'INVALID_CREDENTIALS', 'as for a wrong PIN');
  };

  test('a sign-in whose PIN check began before the reset opens no session', async () => {
    const s = await signUp(t);
    const held = await signInHeldAtPinCheck(t, s);
    await resetPin(s);
    held.release();
    assertWrongPin(await held.answer);
    assert.equal(await unrevokedSessions(t, s.user.id), 1, "only the reset's own session");
    const row = await usersRepo.findLiveById(t.c.db, s.user.id);
    assert.equal(row?.pin_version, 1);
    assert.equal((await signin(s.phone, NEW_PIN)).status, 200, 'the new PIN signs in');
  });

  test('an account deletion confirmed with the old PIN during the reset deletes nothing', async () => {
    const s = await signUp(t);
    const held = await deletionHeldAtPinCheck(s);
    const fresh = await resetPin(s);
    held.release();
    assertWrongPin(await held.answer);
    assert.equal((await t.request('GET', '/users/me', { token: fresh })).status, 200, 'still there');
  });

  test('a phone change confirmed with the old PIN during the reset leaves the number', async () => {
    const s = await signUp(t);
    const next = uniquePhone();
    const sent = await t.request('POST', '/users/me/phone', {
      token: s.access_token,
      body: { phone: next },
      ip: uniqueIp(),
    });
    assert.equal(sent.status, 200);
    const held = await heldAtPinCheck(() =>
      t.request('POST', '/users/me/phone/confirm', {
        token: s.access_token,
        body: { phone: next, code: t.sms.lastCode(next), pin: s.pin },
      }),
    );
    const fresh = await resetPin(s);
    held.release();
    assertWrongPin(await held.answer);
    const me = await t.request('GET', '/users/me', { token: fresh });
    assert.equal(me.body.data.phone, s.phone, 'the number stays');
  });

  test('an account deleted while a deletion checks its PIN answers NOT_FOUND, not a wrong PIN', async () => {
    const s = await signUp(t);
    const held = await deletionHeldAtPinCheck(s);
    await t.c.deletion.delete(s.user.id);
    held.release();
    const res = await held.answer;
    assert.equal(res.status, 404, JSON.stringify(res.body));
    assert.equal(res.body.error.code, 'NOT_FOUND');
  });
});
