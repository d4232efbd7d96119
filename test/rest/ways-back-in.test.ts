import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { PinHasher } from '../../src/domain/accounts/pin-hasher.ts';
import { translate } from '../../src/i18n/languages.ts';
import { replaceRecoveryCodes } from '../../src/storage/rules/recovery-codes.ts';
import {
  createTestApp,
  events,
  type SignedUp,
  signUp,
  type TestApp,
  uniqueIp,
  verifiedTempToken,
} from '../helpers/app.ts';
import { SoftAuthenticator } from '../helpers/authenticator.ts';
import { consoleGet as consolePage } from '../helpers/console.ts';
import { testSecrets } from '../helpers/database.ts';

// A PIN reset leaves no way back in: what was made under the old PIN (passkeys, recovery codes) ends with it,
// a new set of recovery codes is told to the phone, and making sets costs no PIN hashing and has its own limit.

const ORIGIN = 'http://callsign.test';

const ADMIN_TOKEN = 'ways-back-in-admin-token-0123456789';

describe('what a PIN reset removes, and recovery codes kept under a keyed hash', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({
      env: { ADMIN_TOKEN, RATE_LIMITS: 'signin_address=1000/900,signin_phone=1000/900' },
    });
  });
  after(() => t.close());

  const makeCodes = (s: { access_token: string }, pin: string) =>
    t.request('POST', '/users/me/recovery-codes', { token: s.access_token, body: { pin } });

  async function addPasskey(s: { access_token: string }, name: string) {
    const key = new SoftAuthenticator(ORIGIN);
    const opts = await t.request('POST', '/passkeys/registration/options', { token: s.access_token });
    const kept = await t.request('POST', '/passkeys/registration', {
      token: s.access_token,
      body: { response: key.create(opts.body.data), name },
    });
    assert.equal(kept.status, 200, JSON.stringify(kept.body));
    return { key, id: kept.body.data.id as string };
  }

  const passkeySignIn = async (key: SoftAuthenticator) => {
    const opts = await t.request('POST', '/auth/passkey/options', { body: {} });
    return t.request('POST', '/auth/passkey/verify', { body: { response: key.get(opts.body.data) } });
  };

  const consoleGet = (path: string) => consolePage(t, ADMIN_TOKEN, path);

  test('a new set of recovery codes is told to the phone, in the account’s language', async () => {
    const s = await signUp(t);
    await t.c.db.query(`UPDATE users SET language = 'es' WHERE id = $1`, [s.user.id]);
    const made = await makeCodes(s, s.pin);
    assert.equal(made.status, 200);
    assert.equal(t.sms.messagesTo(s.phone).at(-1), translate('es', 'phone.recovery_codes_created'));
  });

  test('someone who learnt the PIN adds a passkey and codes; the owner’s reset by code ends both and says so', async () => {
    const owner: SignedUp = await signUp(t);
    const intruder = await t.request('POST', '/auth/signin', {
      body: { phone: owner.phone, pin: owner.pin, device: { platform: 'web' } },
    });
    const their = intruder.body.data;
    const codes = (await makeCodes(their, owner.pin)).body.data.codes as string[];
    const { key } = await addPasskey(their, 'Not yours');
    const stored = await t.c.db.query<{ session_id: string | null }>(
      'SELECT session_id FROM passkeys WHERE user_id = $1',
      [owner.user.id],
    );
    const sid = decodeJwt(their.access_token).sid;
    assert.equal(stored[0]?.session_id, sid, 'the passkey names its session');
    // The owner sees which session made it, and so does the operator (the API, and the console's user page).
    const listed = await t.request('GET', '/passkeys', { token: owner.access_token });
    assert.equal(listed.body.data.passkeys[0].session_id, sid);
    const detail = await t.request('GET', `/admin/v1/users/${owner.user.id}`, { token: ADMIN_TOKEN });
    assert.equal(detail.body.passkeys[0].session_id, sid);
    assert.equal(detail.body.recovery_codes.session_id, sid);
    const consolePage = String((await consoleGet(`/console/users/${owner.user.id}`)).body);
    assert.match(consolePage, /<td data-label="Made from">web \(web\)<\/td>/);
    assert.match(consolePage, /made [^<]* from web \(web\)\./);

    const temp_token = await verifiedTempToken(t, owner.phone, 'pin_reset');
    const reset = await t.request('POST', '/auth/pin/reset', { body: { temp_token, pin: '736251' } });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    assert.deepEqual(reset.body.data.removed, { passkeys: 1, recovery_codes: true });
    const event = (await events(t, 'user.pin_reset')).filter((e) => e.data.user_id === owner.user.id);
    assert.deepEqual(event.at(-1)?.data.removed, { passkeys: 1, recovery_codes: true });
    assert.equal(event.at(-1)?.data.by, 'code');
    assert.ok((await events(t, 'passkey.deleted')).some((e) => e.data.user_id === owner.user.id));

    assert.equal((await passkeySignIn(key)).status, 401, 'their passkey no longer signs in');
    const again = await t.request('POST', '/auth/pin/reset', {
      body: { phone: owner.phone, recovery_code: codes[0], pin: '918273' },
    });
    assert.equal(
      again.body.error?.code,
      'INVALID_CREDENTIALS',
      'their recovery code no longer resets the PIN',
    );
    const signIn = await t.request('POST', '/auth/signin', { body: { phone: owner.phone, pin: '736251' } });
    assert.equal(signIn.status, 200, 'the owner’s new PIN holds');
  });

  test('a reset by recovery code ends the passkeys made under the old PIN and the set it used', async () => {
    const s = await signUp(t);
    const codes = (await makeCodes(s, s.pin)).body.data.codes as string[];
    await addPasskey(s, 'Phone');
    await addPasskey(s, 'Laptop');
    const reset = await t.request('POST', '/auth/pin/reset', {
      body: { phone: s.phone, recovery_code: codes[1], pin: '736251' },
    });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    assert.deepEqual(reset.body.data.removed, { passkeys: 2, recovery_codes: true });
    const status = await t.request('GET', '/users/me/recovery-codes', {
      token: reset.body.data.access_token,
    });
    assert.deepEqual(status.body.data, { remaining: 0, created_at: null });
  });

  test('a set or passkey asked for by a sign-in from before the reset is refused, though its request raced it', async () => {
    const s = await signUp(t);
    const signedInAt = t.clock.now();
    t.clock.advance(1);
    const temp_token = await verifiedTempToken(t, s.phone, 'pin_reset');
    assert.equal(
      (await t.request('POST', '/auth/pin/reset', { body: { temp_token, pin: '736251' } })).status,
      200,
    );
    // The request's checks passed before the reset; its statement runs after it.
    const kept = await t.c.db.transaction((tx) =>
      replaceRecoveryCodes(tx, {
        userId: s.user.id,
        hashes: ['hmac:x'],
        codeKeyEnc: 'sealed',
        createdAt: t.clock.now(),
        sessionId: null,
        signedInAt,
      }),
    );
    assert.deepEqual(kept, { kept: false, refusal: 'signed_in_before_pin_reset' });
  });

  test('sets are limited per account (recovery_codes_user) before any PIN is checked; others are not held up', async () => {
    const s = await signUp(t);
    const other = await signUp(t);
    for (let i = 0; i < 5; i++) assert.equal((await makeCodes(s, s.pin)).status, 200);
    const refused = await makeCodes(s, '000000');
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, 'RATE_LIMITED');
    const failed = await t.c.db.query<{ failed_pin_attempts: number }>(
      'SELECT failed_pin_attempts FROM users WHERE id = $1',
      [s.user.id],
    );
    assert.equal(failed[0]?.failed_pin_attempts, 0, 'the refused request checked no PIN');
    assert.equal((await makeCodes(other, other.pin)).status, 200);
    t.clock.advance(3600);
    const fresh = await t.request('POST', '/auth/signin', { body: { phone: s.phone, pin: s.pin } });
    assert.equal((await makeCodes(fresh.body.data, s.pin)).status, 200, 'the next hour');
  });

  test('a set made before keyed hashes (argon2id with a salt) still resets the PIN', async () => {
    const s = await signUp(t);
    const salt = Buffer.alloc(16, 7);
    const hash = await new PinHasher(testSecrets.pinPepper).hashWithSalt('ABCDE12345', salt);
    await t.c.db.query('INSERT INTO recovery_code_sets (user_id, created_at) VALUES ($1, $2)', [
      s.user.id,
      t.clock.now(),
    ]);
    await t.c.db.query(
      'INSERT INTO recovery_codes (user_id, code_hash, salt, created_at) VALUES ($1, $2, $3, $4)',
      [s.user.id, hash, salt, t.clock.now()],
    );
    const reset = await t.request('POST', '/auth/pin/reset', {
      body: { phone: s.phone, recovery_code: 'abcde-12345', pin: '736251' },
      ip: uniqueIp(),
    });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
  });
});
