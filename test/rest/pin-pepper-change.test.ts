import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Secrets } from '../../src/config/secrets.ts';
import { keyIdOf, pepperKeyId } from '../../src/domain/accounts/pin-hasher.ts';
import {
  createTestApp,
  type SignedUp,
  signUp,
  type TestApp,
  uniqueIp,
  verifiedTempToken,
} from '../helpers/app.ts';
import { testSecrets } from '../helpers/database.ts';
import { ADMIN_TOKEN } from '../helpers/oauth.ts';

// P114: PIN_PEPPER can be changed. Each hash names its pepper (PHC `keyid`); the old pepper, as
// PIN_PEPPER_FALLBACK, still checks the PINs it hashed, and each moves to the new one at its next sign-in.

const newPepper = randomBytes(32);
/** the new pepper, with the old one (the test database's) as the fallback */
const changing: Secrets = { ...testSecrets, pinPepper: newPepper, pinPepperFallback: testSecrets.pinPepper };
/** the new pepper alone, once the change is over */
const changed: Secrets = { ...testSecrets, pinPepper: newPepper };
const env = { ADMIN_TOKEN };

describe('PIN_PEPPER changes, the old one as PIN_PEPPER_FALLBACK', () => {
  let old: TestApp;
  before(async () => {
    old = await createTestApp({ env });
  });
  after(() => old.close());

  const hashOf = async (userId: string) =>
    (await old.c.db.query<{ pin_hash: string }>('SELECT pin_hash FROM users WHERE id = $1', [userId]))[0]
      .pin_hash;
  /** Makes the account's hash one from before hashes named their pepper. */
  const unname = async (s: SignedUp) => {
    const named = await hashOf(s.user.id);
    const unnamed = named.replace(/,keyid=[^$]*/, '');
    await old.c.db.query('UPDATE users SET pin_hash = $2 WHERE id = $1', [s.user.id, unnamed]);
    return unnamed;
  };
  const signIn = (t: TestApp, s: { phone: string }, pin: string) =>
    t.request('POST', '/auth/signin', { body: { phone: s.phone, pin }, ip: uniqueIp() });
  const counts = async (t: TestApp) => {
    const res = await t.request('GET', '/admin/v1/keys/pin-pepper', { token: ADMIN_TOKEN });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };

  test('a hash names its pepper by a key id that tells nothing of it', async () => {
    const s = await signUp(old);
    const stored = await hashOf(s.user.id);
    assert.match(stored, /^\$argon2id\$v=19\$m=7168,t=5,p=1,keyid=[A-Za-z0-9+/]{11}\$[^$]+\$[^$]+$/);
    assert.equal(keyIdOf(stored), pepperKeyId(testSecrets.pinPepper));
    assert.notEqual(pepperKeyId(newPepper), pepperKeyId(testSecrets.pinPepper));
    assert.ok(!stored.includes(testSecrets.pinPepper.toString('base64').slice(0, 8)));
  });

  test('each PIN moves to the new pepper at its sign-in; after the change, one left behind is reset by SMS', async () => {
    const moved = await signUp(old);
    const left = await signUp(old);
    const unnamed = await signUp(old);
    const before = await unname(unnamed);
    const firstCounts = await counts(old);

    const changingApp = await createTestApp({ shareWith: old, secrets: changing, env });
    try {
      assert.deepEqual(await counts(changingApp), {
        current: 0,
        fallback: firstCounts.current,
        unnamed: 1,
        other: 0,
      });
      const leftHash = await hashOf(left.user.id);
      assert.equal((await signIn(changingApp, left, '918273')).status, 401);
      assert.equal(await hashOf(left.user.id), leftHash, 'a wrong PIN moves nothing');

      assert.equal((await signIn(changingApp, moved, moved.pin)).status, 200, 'the fallback checks it');
      assert.equal(keyIdOf(await hashOf(moved.user.id)), pepperKeyId(newPepper));
      assert.equal((await signIn(changingApp, unnamed, unnamed.pin)).status, 200, 'tried with both');
      const renamed = await hashOf(unnamed.user.id);
      assert.equal(keyIdOf(renamed), pepperKeyId(newPepper));
      assert.notEqual(renamed.split('$')[4], before.split('$')[4], 'made again with the new pepper');
      assert.deepEqual(await counts(changingApp), {
        current: 2,
        fallback: firstCounts.current - 1,
        unnamed: 0,
        other: 0,
      });
    } finally {
      await changingApp.close();
    }

    const changedApp = await createTestApp({ shareWith: old, secrets: changed, env });
    try {
      for (const s of [moved, unnamed]) assert.equal((await signIn(changedApp, s, s.pin)).status, 200);
      const refused = await signIn(changedApp, left, left.pin);
      assert.equal(refused.status, 401, 'its pepper is gone, so its PIN can no longer be checked');
      assert.equal(refused.body.error.code, 'INVALID_CREDENTIALS');
      assert.equal((await counts(changedApp)).other, firstCounts.current - 1);

      const temp_token = await verifiedTempToken(changedApp, left.phone, 'pin_reset');
      const reset = await changedApp.request('POST', '/auth/pin/reset', {
        body: { temp_token, pin: '204913' },
      });
      assert.equal(reset.status, 200, JSON.stringify(reset.body));
      assert.equal((await signIn(changedApp, left, '204913')).status, 200);
      assert.equal(keyIdOf(await hashOf(left.user.id)), pepperKeyId(newPepper));
    } finally {
      await changedApp.close();
    }
  });

  test("several instances: one on the old pepper with the new as its fallback checks the changed one's hashes", async () => {
    const first = await createTestApp({
      shareWith: old,
      secrets: { ...testSecrets, pinPepperFallback: newPepper },
      env,
    });
    const second = await createTestApp({ shareWith: old, secrets: changing, env });
    try {
      const s = await signUp(second);
      assert.equal(keyIdOf(await hashOf(s.user.id)), pepperKeyId(newPepper));
      assert.equal((await signIn(first, s, s.pin)).status, 200);
      assert.equal((await signIn(second, s, s.pin)).status, 200);
    } finally {
      await second.close();
      await first.close();
    }
  });

  test('without a fallback, a hash from before key ids with today parameters is named in place, not made again', async () => {
    const s = await signUp(old);
    const named = await hashOf(s.user.id);
    await unname(s);
    assert.equal((await signIn(old, s, s.pin)).status, 200);
    assert.equal(await hashOf(s.user.id), named, 'the same salt and hash, its pepper named');
  });
});
