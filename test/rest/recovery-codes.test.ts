import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { translate } from '../../src/i18n/languages.ts';
import {
  type Answer,
  createTestApp,
  events,
  type SignedUp,
  signUp,
  type TestApp,
  uniqueIp,
  uniquePhone,
} from '../helpers/app.ts';
import { SoftAuthenticator } from '../helpers/authenticator.ts';

const CODE = /^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/;

describe('recovery codes: a PIN reset without the phone number', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'signin_address=1000/900,signin_phone=1000/900' } });
  });
  after(() => t.close());

  const generate = (s: { access_token: string }, body?: unknown) =>
    t.request('POST', '/users/me/recovery-codes', { token: s.access_token, body });
  const status = async (s: { access_token: string }) =>
    (await t.request('GET', '/users/me/recovery-codes', { token: s.access_token })).body.data;
  const reset = (phone: string, recovery_code: string, pin = '736251') =>
    t.request('POST', '/auth/pin/reset', { body: { phone, recovery_code, pin }, ip: uniqueIp() });
  const codesOf = async (s: SignedUp): Promise<string[]> => {
    const res = await generate(s, { pin: s.pin });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data.codes;
  };
  const assertRefused = (res: Answer, code = 'INVALID_CREDENTIALS') =>
    assert.equal(res.body.error?.code, code, JSON.stringify(res.body));

  test('ten codes, shown once, each 50 bits of Crockford base32; a new set replaces the old', async () => {
    const s = await signUp(t);
    assert.deepEqual(await status(s), { remaining: 0, created_at: null });
    const first = await generate(s, { pin: s.pin });
    assert.equal(first.status, 200);
    assert.equal(first.body.data.codes.length, 10);
    for (const code of first.body.data.codes) assert.match(code, CODE);
    assert.equal(new Set(first.body.data.codes).size, 10);
    assert.deepEqual(await status(s), { remaining: 10, created_at: first.body.data.created_at });
    const stored = await t.c.db.query<{ code_hash: string }>(
      'SELECT code_hash FROM recovery_codes WHERE user_id = $1',
      [s.user.id],
    );
    for (const row of stored) {
      assert.match(row.code_hash, /^hmac:[A-Za-z0-9_-]{43}$/);
      for (const code of first.body.data.codes) assert.ok(!row.code_hash.includes(code.replace('-', '')));
    }
    assert.equal((await events(t, 'recovery_codes.generated')).at(-1)?.data.user_id, s.user.id);
    const second = await codesOf(s);
    assertRefused(await reset(s.phone, first.body.data.codes[0]));
    assert.equal((await reset(s.phone, second[0])).status, 200);
  });

  test('making a set needs the PIN, counted against the lock, or a passkey sign-in within 10 minutes', async () => {
    const s = await signUp(t);
    const none = await generate(s);
    assert.equal(none.status, 403);
    assert.equal(none.body.error.details.reason, 'recent_sign_in_required');
    assertRefused(await generate(s, { pin: '999999' }));
    const failed = await t.c.db.query<{ failed_pin_attempts: number }>(
      'SELECT failed_pin_attempts FROM users WHERE id = $1',
      [s.user.id],
    );
    assert.equal(failed[0].failed_pin_attempts, 1);

    const key = new SoftAuthenticator('http://callsign.test');
    const opts = await t.request('POST', '/passkeys/registration/options', { token: s.access_token });
    const kept = await t.request('POST', '/passkeys/registration', {
      token: s.access_token,
      body: { response: key.create(opts.body.data) },
    });
    assert.equal(kept.status, 200);
    const signInOpts = await t.request('POST', '/auth/passkey/options', { body: {} });
    const signedIn = await t.request('POST', '/auth/passkey/verify', {
      body: { response: key.get(signInOpts.body.data) },
    });
    const byPasskey = { access_token: signedIn.body.data.access_token as string };
    assert.equal((await generate(byPasskey)).status, 200, 'no PIN after a passkey sign-in');
    t.clock.advance(601);
    assert.equal((await generate(byPasskey)).body.error.details.reason, 'recent_sign_in_required');
  });

  test('a code resets the PIN once: the lock lifted, every other session ended, a new session answered', async () => {
    const s = await signUp(t);
    const codes = await codesOf(s);
    for (let i = 0; i < 10; i++)
      await t.request('POST', '/auth/signin', { body: { phone: s.phone, pin: '999999' }, ip: uniqueIp() });
    assertRefused(
      await t.request('POST', '/auth/signin', { body: { phone: s.phone, pin: s.pin } }),
      'ACCOUNT_LOCKED',
    );
    // Spaces, hyphens and letter case are ignored.
    const typed = ` ${codes[3].toLowerCase().replace('-', ' - ')} `;
    const res = await t.request('POST', '/auth/pin/reset', {
      body: { phone: s.phone, recovery_code: typed, pin: '736251', device: { platform: 'ios' } },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.user.id, s.user.id);
    assert.ok(res.body.data.access_token && res.body.data.refresh_token);
    const old = await t.request('GET', '/users/me', { token: s.access_token });
    assert.equal(old.status, 401, 'the session before the reset ended');
    const revoked = (await events(t, 'session.revoked')).filter((e) => e.data.user_id === s.user.id);
    assert.ok(revoked.some((e) => e.data.reason === 'pin_reset'));
    const used = (await events(t, 'recovery_code.used')).at(-1);
    assert.equal(used?.data.user_id, s.user.id);
    assert.equal(used?.data.remaining, 0, 'the reset ends the set of the code it used');
    assert.equal(t.sms.messagesTo(s.phone).at(-1), translate('en', 'phone.pin_reset_by_recovery_code'));
    const signIn = await t.request('POST', '/auth/signin', { body: { phone: s.phone, pin: '736251' } });
    assert.equal(signIn.status, 200, 'the new PIN works and the lock is lifted');
    assertRefused(await reset(s.phone, codes[3]), 'INVALID_CREDENTIALS');
    assertRefused(await reset(s.phone, codes[4]), 'INVALID_CREDENTIALS');
    assert.equal((await status(signIn.body.data)).remaining, 0);
  });

  test('one code used by two resets at once resets once', async () => {
    const s = await signUp(t);
    const [code] = await codesOf(s);
    const [a, b] = await Promise.all([reset(s.phone, code, '736251'), reset(s.phone, code, '918273')]);
    assert.deepEqual([a.status, b.status].sort(), [200, 401]);
  });

  test('a wrong, malformed or another account’s code is INVALID_CREDENTIALS; an unknown number is PHONE_NOT_FOUND', async () => {
    const s = await signUp(t);
    const other = await signUp(t);
    await codesOf(s);
    const theirs = await codesOf(other);
    assertRefused(await reset(s.phone, 'ABCDE-FGHJK'));
    assertRefused(await reset(s.phone, 'not a code'));
    assertRefused(await reset(s.phone, theirs[0]));
    const noSet = await signUp(t);
    assertRefused(await reset(noSet.phone, theirs[1]));
    const unknown = await reset(uniquePhone(), theirs[1]);
    assertRefused(unknown, 'PHONE_NOT_FOUND');
    assertRefused(await reset(s.phone, theirs[2], '1234'), 'INVALID_PIN');
    const neither = await t.request('POST', '/auth/pin/reset', { body: { phone: s.phone, pin: '736251' } });
    assertRefused(neither, 'INVALID_REQUEST');
  });

  test('attempts count against the number’s sign-in limit, 5 per 15 minutes', async () => {
    const limited = await createTestApp();
    try {
      const s = await signUp(limited);
      const attempts: number[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await limited.request('POST', '/auth/pin/reset', {
          body: { phone: s.phone, recovery_code: 'ABCDE-FGHJK', pin: '736251' },
          ip: uniqueIp(),
        });
        attempts.push(res.status);
      }
      assert.deepEqual(attempts, [401, 401, 401, 401, 401, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('recovery codes under ENUMERATION_PROTECTION', () => {
  test('an unknown number answers as a wrong code', async () => {
    const t = await createTestApp({ env: { ENUMERATION_PROTECTION: 'true' } });
    try {
      const res = await t.request('POST', '/auth/pin/reset', {
        body: { phone: uniquePhone(), recovery_code: 'ABCDE-FGHJK', pin: '736251' },
      });
      assert.equal(res.status, 401);
      assert.equal(res.body.error.code, 'INVALID_CREDENTIALS');
    } finally {
      await t.close();
    }
  });
});
