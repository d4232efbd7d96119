import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { sessionsRepo } from '../../src/storage/repositories/sessions.ts';
import { type UserRow, usersRepo } from '../../src/storage/repositories/users.ts';
import { storeOtp, submitCurrentOtp, withdrawOtp } from '../../src/storage/rules/otp-codes.ts';
import { movePhone } from '../../src/storage/rules/phone-change.ts';
import {
  clearPinFailures,
  PIN_LOCK_SECONDS,
  PIN_LOCK_THRESHOLD,
  takePinAttempt,
} from '../../src/storage/rules/pin-lock.ts';
import { resetPinOfPhone } from '../../src/storage/rules/pin-reset.ts';
import { HANDLE_COOLDOWN_SECONDS, writeProfile } from '../../src/storage/rules/profile-write.ts';
import { addRateHits } from '../../src/storage/rules/rate-counters.ts';
import {
  type AccountToHold,
  holdAccountForPinSignIn,
  holdAccountForSignIn,
} from '../../src/storage/rules/sign-in-hold.ts';
import { consumeTempToken } from '../../src/storage/rules/temp-tokens.ts';
import { freshDatabase, type TestDatabase } from '../helpers/database.ts';

// Each statement that enforces a security rule, run on its own against the database the suite runs on
// (PGlite, and PostgreSQL in CI): every rule its file names, and the reason it answers when it refuses.

const RULES_DIR = new URL('../../src/storage/rules/', import.meta.url);
const T0 = new Date('2026-01-01T00:00:00Z');
const later = (seconds: number, from = T0) => new Date(from.getTime() + seconds * 1000);

let database: TestDatabase;
before(async () => {
  database = await freshDatabase();
});
after(() => database.drop());

const phone = () => `+1415${String(randomBytes(4).readUInt32BE() % 10_000_000).padStart(7, '0')}`;

async function account(): Promise<UserRow> {
  return usersRepo.insert(database.db, {
    id: randomUUID(),
    phone: phone(),
    handle: `u${randomBytes(6).toString('hex')}`,
    name: null,
    country: null,
    pinHash: 'hash',
    now: T0,
  });
}

describe('the rule files', () => {
  test('each opens with the rules it enforces, and no statement counts parameter numbers by hand', () => {
    const files = readdirSync(RULES_DIR).filter((f) => f.endsWith('.ts'));
    assert.ok(files.length >= 9, files.join(', '));
    for (const file of files) {
      const text = readFileSync(new URL(file, RULES_DIR), 'utf8');
      assert.match(text.split('\n').slice(0, 4).join('\n'), /^\/\/ /, `${file} opens with a comment`);
      assert.match(text, /^\/\/ Rules it enforces:$/m, `${file} lists its rules`);
      assert.doesNotMatch(text, /\$\d|\$\$\{/, `${file} writes its values by name`);
    }
  });
});

describe('pin-lock.ts', () => {
  test('the attempt that reaches the threshold locks; a locked account takes none; a run-out lock restarts', async () => {
    const user = await account();
    for (let i = 1; i <= PIN_LOCK_THRESHOLD; i++) {
      const attempt = await takePinAttempt(database.db, { phone: user.phone }, T0);
      assert.equal(attempt.taken, true, `attempt ${i}`);
      if (attempt.taken)
        assert.equal(
          attempt.account.locked_until?.getTime() ?? null,
          i === PIN_LOCK_THRESHOLD ? later(PIN_LOCK_SECONDS).getTime() : null,
        );
    }
    const refused = await takePinAttempt(database.db, { id: user.id }, later(1));
    assert.equal(refused.taken === false && refused.refusal, 'locked_by_failures');
    assert.equal(
      !refused.taken && 'lockedUntil' in refused && refused.lockedUntil?.getTime(),
      later(PIN_LOCK_SECONDS).getTime(),
    );
    const afterLock = await takePinAttempt(database.db, { id: user.id }, later(PIN_LOCK_SECONDS + 1));
    assert.ok(afterLock.taken && afterLock.account.failed_pin_attempts === 1, 'a fresh count');
    await clearPinFailures(database.db, user.id);
    assert.equal((await usersRepo.findLiveById(database.db, user.id))?.failed_pin_attempts, 0);
  });

  test('no account, and an account the operator locked, are refused by name', async () => {
    assert.deepEqual(await takePinAttempt(database.db, { phone: phone() }, T0), {
      taken: false,
      refusal: 'no_account',
    });
    const user = await account();
    await usersRepo.setAdminLock(database.db, user.id, T0);
    const refused = await takePinAttempt(database.db, { phone: user.phone }, T0);
    assert.equal(!refused.taken && refused.refusal, 'locked_by_operator');
  });
});

describe('sign-in-hold.ts', () => {
  const hold = (who: AccountToHold) => database.db.transaction((tx) => holdAccountForSignIn(tx, who));

  test('a sign-in holds only a live account the operator has not locked, by its number or its id', async () => {
    const user = await account();
    const byPhone = await hold({ phone: user.phone });
    assert.ok(byPhone.held && byPhone.account.id === user.id);
    assert.ok((await hold({ userId: user.id })).held);
    assert.deepEqual(await hold({ phone: phone() }), { held: false, refusal: 'no_account' });
    await usersRepo.setAdminLock(database.db, user.id, T0);
    assert.deepEqual(await hold({ userId: user.id }), { held: false, refusal: 'locked_by_operator' });
  });

  test("a PIN's sign-in holds the account only while its PIN is the one checked", async () => {
    const user = await account();
    assert.ok((await hold({ userId: user.id, pinVersion: user.pin_version })).held);
    assert.deepEqual(await hold({ userId: user.id, pinVersion: user.pin_version + 1 }), {
      held: false,
      refusal: 'pin_changed',
    });
  });

  test('the lock after wrong PINs neither stops a hold nor is lifted by it', async () => {
    const user = await account();
    for (let i = 0; i < PIN_LOCK_THRESHOLD; i++) await takePinAttempt(database.db, { id: user.id }, T0);
    const held = await hold({ phone: user.phone });
    assert.ok(held.held && held.account.locked_until !== null);
    assert.ok((await usersRepo.findLiveById(database.db, user.id))?.locked_until);
  });
});

describe('sign-in-hold.ts: a sign-in by PIN in one statement', () => {
  const sessionOf = (user: UserRow) => ({
    session: {
      id: randomUUID(),
      user_id: user.id,
      client_id: 'first-party',
      device_name: null,
      platform: 'web',
      ip_address: null,
      scope: 'openid',
      now: T0,
      amr: ['pwd'],
    },
    firstToken: { hash: randomBytes(16).toString('hex'), expires_at: later(3600) },
    created: { id: randomUUID(), type: 'session.created', data: {}, createdAt: T0 },
  });
  const wrongPins = async (user: UserRow) => {
    for (let i = 0; i < 2; i++) await takePinAttempt(database.db, { id: user.id }, T0);
    return (await usersRepo.findLiveById(database.db, user.id))?.failed_pin_attempts;
  };
  const failuresOf = async (user: UserRow) =>
    (await usersRepo.findLiveById(database.db, user.id))?.failed_pin_attempts;

  test('opens the session and clears the wrong PINs of a live account at the PIN checked', async () => {
    const user = await account();
    assert.equal(await wrongPins(user), 2);
    const write = sessionOf(user);
    const held = await holdAccountForPinSignIn(
      database.db,
      { userId: user.id, pinVersion: user.pin_version },
      write,
    );
    assert.ok(held.held && held.account.id === user.id);
    assert.equal(await failuresOf(user), 0);
    assert.equal((await sessionsRepo.findById(database.db, write.session.id))?.user_id, user.id);
  });

  test('opens nothing and clears nothing when the PIN changed, the account is gone or the operator locked it', async () => {
    const user = await account();
    await wrongPins(user);
    const atPin = (pinVersion: number) => ({ userId: user.id, pinVersion });
    const changed = sessionOf(user);
    assert.deepEqual(await holdAccountForPinSignIn(database.db, atPin(user.pin_version + 1), changed), {
      held: false,
      refusal: 'no_account_at_pin',
    });
    await usersRepo.setAdminLock(database.db, user.id, T0);
    const locked = sessionOf(user);
    assert.deepEqual(await holdAccountForPinSignIn(database.db, atPin(user.pin_version), locked), {
      held: false,
      refusal: 'locked_by_operator',
    });
    assert.equal(await failuresOf(user), 2, 'the count stands');
    for (const write of [changed, locked])
      assert.equal(await sessionsRepo.findById(database.db, write.session.id), undefined);
    const gone = await account();
    await database.db.query('UPDATE users SET deleted_at = $1 WHERE id = $2', [T0, gone.id]);
    const refused = await holdAccountForPinSignIn(database.db, {
      userId: gone.id,
      pinVersion: gone.pin_version,
    });
    assert.deepEqual(refused, { held: false, refusal: 'no_account_at_pin' });
  });
});

describe('temp-tokens.ts', () => {
  test('a temp token is used once, for its purpose, before it expires', async () => {
    const insert = async (purpose: string, expiresAt: Date) => {
      const hash = randomBytes(16).toString('hex');
      await database.db.query(
        'INSERT INTO temp_tokens (token_hash, phone, purpose, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
        [hash, '+14155550100', purpose, T0, expiresAt],
      );
      return hash;
    };
    const refused = { consumed: false, refusal: 'unknown_used_or_expired' };
    const token = await insert('signup', later(600));
    assert.deepEqual(await consumeTempToken(database.db, token, 'pin_reset', T0), refused, 'another purpose');
    assert.deepEqual(await consumeTempToken(database.db, token, 'signup', T0), {
      consumed: true,
      phone: '+14155550100',
      channel: null, // no message carried a code for it
    });
    assert.deepEqual(await consumeTempToken(database.db, token, 'signup', T0), refused, 'used');
    const expired = await insert('signup', later(600));
    assert.deepEqual(await consumeTempToken(database.db, expired, 'signup', later(600)), refused, 'expired');
  });
});

describe('pin-reset.ts', () => {
  test('a reset finds the account by its phone, unlocks, versions the PIN, and names what refused it', async () => {
    assert.deepEqual(await resetPinOfPhone(database.db, phone(), 'new', T0), {
      reset: false,
      refusal: 'no_account_with_phone',
    });
    const user = await account();
    for (let i = 0; i < PIN_LOCK_THRESHOLD; i++) await takePinAttempt(database.db, { id: user.id }, T0);
    const reset = await resetPinOfPhone(database.db, user.phone, 'new', T0);
    assert.ok(reset.reset);
    assert.deepEqual(
      [
        reset.account.pin_hash,
        reset.account.pin_version,
        reset.account.failed_pin_attempts,
        reset.account.locked_until,
      ],
      ['new', user.pin_version + 1, 0, null],
    );
    await usersRepo.setAdminLock(database.db, user.id, T0);
    const locked = await resetPinOfPhone(database.db, user.phone, 'newer', T0);
    assert.equal(!locked.reset && locked.refusal, 'locked_by_operator');
  });
});

describe('phone-change.ts', () => {
  test('the number moves only while the PIN checked is still the account’s', async () => {
    const user = await account();
    const next = phone();
    assert.deepEqual(
      await movePhone(database.db, {
        userId: user.id,
        phone: next,
        pinVersion: user.pin_version + 1,
        now: T0,
      }),
      {
        moved: false,
        refusal: 'account_gone_or_pin_changed',
      },
    );
    const moved = await movePhone(database.db, {
      userId: user.id,
      phone: next,
      pinVersion: user.pin_version,
      now: T0,
    });
    assert.ok(moved.moved && moved.account.phone === next);
  });
});

describe('profile-write.ts', () => {
  test('a handle changes once per cooldown; other fields are written any time', async () => {
    const user = await account();
    const first = await writeProfile(
      database.db,
      user.id,
      { handle: `h${randomBytes(5).toString('hex')}` },
      T0,
    );
    assert.ok(first.written);
    const soon = later(HANDLE_COOLDOWN_SECONDS - 1);
    assert.deepEqual(
      await writeProfile(database.db, user.id, { handle: `h${randomBytes(5).toString('hex')}` }, soon),
      {
        written: false,
        refusal: 'handle_cooldown',
      },
    );
    const named = await writeProfile(database.db, user.id, { name: 'Ada', metadata: { a: 1 } }, soon);
    assert.ok(named.written && named.account.name === 'Ada');
    const due = await writeProfile(
      database.db,
      user.id,
      { handle: `h${randomBytes(5).toString('hex')}` },
      later(HANDLE_COOLDOWN_SECONDS),
    );
    assert.ok(due.written);
  });
});

describe('rate-counters.ts', () => {
  test('hits add up in a window, a newer window restarts, and a late hit of an older one counts in the newer', async () => {
    const key = `k${randomBytes(6).toString('hex')}`;
    assert.equal(await addRateHits(database.db, key, T0, 2), 2);
    assert.equal(await addRateHits(database.db, key, T0, 3), 5);
    assert.equal(await addRateHits(database.db, key, later(60), 1), 1, 'a new window');
    assert.equal(await addRateHits(database.db, key, T0, 1), 2, 'a late hit of the old window');
  });
});

describe('otp-codes.ts', () => {
  const newCode = async (phoneNumber: string, codeHash = 'right') => {
    const id = randomUUID();
    await storeOtp(database.db, {
      id,
      phone: phoneNumber,
      purpose: 'signup',
      codeHash,
      createdAt: T0,
      expiresAt: later(300),
    });
    return id;
  };
  const submit = (p: string, hash: string, now = T0) =>
    submitCurrentOtp(database.db, {
      phone: p,
      purpose: 'signup',
      submittedHashes: [hash],
      maxAttempts: 5,
      now,
    });

  test('a new code ends the one before; a withdrawn or expired code takes no submission', async () => {
    const p = phone();
    await newCode(p, 'old');
    const current = await newCode(p);
    assert.deepEqual(await submit(p, 'old'), { kind: 'wrong', attemptsRemaining: 4 }, 'replaced');
    await withdrawOtp(database.db, current, T0);
    assert.deepEqual(await submit(p, 'right'), { kind: 'none' }, 'withdrawn');
    const late = phone();
    await newCode(late);
    assert.deepEqual(await submit(late, 'right', later(300)), { kind: 'expired' }, 'expired');
    assert.deepEqual(await submit(late, 'right'), { kind: 'used' }, 'an expired submission did not end it');
  });

  test('wrong submissions count down; after the maximum the next burns the code; a right one is used once', async () => {
    const p = phone();
    await newCode(p);
    for (let left = 4; left >= 0; left--)
      assert.deepEqual(await submit(p, 'wrong'), { kind: 'wrong', attemptsRemaining: left });
    assert.deepEqual(await submit(p, 'right'), { kind: 'burnt' });
    const fresh = phone();
    await newCode(fresh);
    assert.deepEqual(await submit(fresh, 'right'), { kind: 'used' });
    assert.deepEqual(await submit(fresh, 'right'), { kind: 'none' });
  });

  /** One submission against the phone's current code, with a temp token and a verified count on a match. */
  const submitCurrent = (p: string, hash: string, token: string, now = T0) =>
    submitCurrentOtp(
      database.db,
      { phone: p, purpose: 'signup', submittedHashes: [hash], maxAttempts: 5, now },
      {
        verifiedIn: 'ZZ',
        tempToken: {
          token_hash: token,
          phone: p,
          purpose: 'signup',
          created_at: now,
          expires_at: later(600, now),
        },
      },
    );
  const written = async (token: string) => ({
    tokens: (await database.db.query('SELECT 1 FROM temp_tokens WHERE token_hash = $1', [token])).length,
    verified: Number(
      (
        await database.db.query<{ n: number }>(
          "SELECT coalesce(sum(verified), 0)::int AS n FROM sms_country_minutes WHERE country = 'ZZ'",
        )
      )[0].n,
    ),
  });

  test('the current code: found, expired or none; only a match writes its temp token and its count', async () => {
    const p = phone();
    assert.deepEqual(await submitCurrent(p, 'right', 'tok-none'), { kind: 'none' }, 'no code sent');
    await newCode(p);
    assert.deepEqual(await submitCurrent(p, 'right', 'tok-late', later(300)), { kind: 'expired' });
    const before = (await written('x')).verified;
    assert.deepEqual(await submitCurrent(p, 'wrong', 'tok-wrong'), { kind: 'wrong', attemptsRemaining: 4 });
    assert.deepEqual(
      await written('tok-wrong'),
      { tokens: 0, verified: before },
      'a wrong code writes nothing',
    );
    const both = await Promise.all([submitCurrent(p, 'right', 'tok-a'), submitCurrent(p, 'right', 'tok-b')]);
    const kinds = both.map((o) => o.kind);
    assert.equal(
      kinds.filter((k) => k === 'used').length,
      1,
      'of two right submissions at once, one uses the code',
    );
    assert.ok(
      kinds.every((k) => k === 'used' || k === 'gone' || k === 'none'),
      String(kinds),
    );
    const a = await written('tok-a');
    const b = await written('tok-b');
    assert.equal(a.tokens + b.tokens, 1, 'one temp token, the match’s');
    assert.equal(a.verified, before + 1, 'counted once');
    assert.deepEqual(await submitCurrent(p, 'right', 'tok-again'), { kind: 'none' }, 'used: no current code');
  });
});
