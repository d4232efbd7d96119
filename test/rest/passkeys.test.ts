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
} from '../helpers/app.ts';
import { type Ceremony, SoftAuthenticator } from '../helpers/authenticator.ts';

// The hosted pages' origin and RP ID in the test app (BASE_URL http://callsign.test, AUTH_URL unset).
const ORIGIN = 'http://callsign.test';

describe('passkeys over REST: registration, management and sign-in', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'signin_address=1000/900,signin_phone=1000/900' } });
  });
  after(() => t.close());

  const options = (s: { access_token: string }) =>
    t.request('POST', '/passkeys/registration/options', { token: s.access_token });

  /** A passkey created by the authenticator from fresh options and sent to be kept. */
  async function register(s: SignedUp, key: SoftAuthenticator, c: Ceremony = {}, name?: string) {
    const opts = await options(s);
    assert.equal(opts.status, 200, JSON.stringify(opts.body));
    return t.request('POST', '/passkeys/registration', {
      token: s.access_token,
      body: { response: key.create(opts.body.data, c), name },
    });
  }

  async function signInWith(key: SoftAuthenticator, c: Ceremony = {}): Promise<Answer> {
    const opts = await t.request('POST', '/auth/passkey/options', { body: {}, ip: uniqueIp() });
    assert.equal(opts.status, 200, JSON.stringify(opts.body));
    return t.request('POST', '/auth/passkey/verify', {
      body: { response: key.get(opts.body.data, c), device: { name: 'Pixel', platform: 'android' } },
      ip: uniqueIp(),
    });
  }

  const assertRefused = (res: Answer, code = 'INVALID_CREDENTIALS') => {
    assert.equal(res.body.error?.code, code, JSON.stringify(res.body));
  };

  const passkeysOf = async (s: SignedUp) =>
    (await t.request('GET', '/passkeys', { token: s.access_token })).body.data;

  test('a passkey is registered, listed, and signs in to its account with a new session', async () => {
    const s = await signUp(t, { name: 'Ada' });
    const opts = await options(s);
    assert.equal(opts.body.data.rp.id, 'callsign.test');
    assert.equal(opts.body.data.user.displayName, 'Ada');
    assert.match(opts.body.data.user.name, /^\+1\*+\d{4}$/, 'the masked phone');
    assert.equal(opts.body.data.authenticatorSelection.residentKey, 'required');
    assert.equal(opts.body.data.authenticatorSelection.userVerification, 'required');
    const key = new SoftAuthenticator(ORIGIN, { synced: true });
    const kept = await t.request('POST', '/passkeys/registration', {
      token: s.access_token,
      body: { response: key.create(opts.body.data), name: 'My phone' },
    });
    assert.equal(kept.status, 200, JSON.stringify(kept.body));
    assert.equal(kept.body.data.name, 'My phone');
    assert.equal(kept.body.data.device_type, 'multi_device');
    assert.equal(kept.body.data.backed_up, true);
    assert.deepEqual(kept.body.data.transports, ['internal']);
    assert.equal(kept.body.data.last_used_at, null);
    assert.deepEqual(await passkeysOf(s), { passkeys: [kept.body.data], total: 1 });
    assert.equal(
      t.sms.messagesTo(s.phone).at(-1),
      translate('en', 'phone.passkey_added'),
      'the phone is told',
    );

    const sessionsBefore = (await events(t, 'session.created')).length;
    const signedIn = await signInWith(key);
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
    assert.equal(signedIn.body.data.user.id, s.user.id);
    assert.equal(signedIn.body.data.expires_in, 900);
    assert.equal((await events(t, 'session.created')).length, sessionsBefore + 1);
    const me = await t.request('GET', '/users/me', { token: signedIn.body.data.access_token });
    assert.equal(me.body.data.id, s.user.id);
    const [listed] = (await passkeysOf(s)).passkeys;
    assert.ok(listed.last_used_at, 'the sign-in is remembered');
  });

  test('the options exclude the account’s passkeys; one authenticator is not registered twice', async () => {
    const s = await signUp(t);
    const key = new SoftAuthenticator(ORIGIN);
    assert.equal((await register(s, key)).status, 200);
    const [first] = (await passkeysOf(s)).passkeys;
    const opts = await options(s);
    const credentialId = key.credentials[0].id.toString('base64url');
    assert.deepEqual(
      opts.body.data.excludeCredentials.map((d: { id: string }) => d.id),
      [credentialId],
    );
    assert.ok(first);
    // An authenticator that ignores the exclusion and answers with the same credential id is refused.
    const again = key.create(opts.body.data, { credentialId });
    const twice = await t.request('POST', '/passkeys/registration', {
      token: s.access_token,
      body: { response: again },
    });
    assert.equal(twice.status, 400);
    assert.equal(twice.body.error.details.field, 'response');
  });

  test('a registration with a wrong origin, RP ID, a used, expired or another account’s challenge stores nothing', async () => {
    const s = await signUp(t);
    const other = await signUp(t);
    const key = new SoftAuthenticator(ORIGIN);
    for (const ceremony of [
      { origin: 'https://evil.example' },
      { rpId: 'evil.example' },
      { userVerified: false },
    ]) {
      const res = await register(s, key, ceremony);
      assert.equal(res.status, 400, JSON.stringify(ceremony));
      assertRefused(res, 'INVALID_REQUEST');
      assert.equal(res.body.error.details.field, 'response');
    }
    // The same challenge twice: the first answer is kept, the second refused.
    const opts = await options(s);
    const send = (response: unknown) =>
      t.request('POST', '/passkeys/registration', { token: s.access_token, body: { response } });
    assert.equal((await send(key.create(opts.body.data))).status, 200);
    assertRefused(await send(key.create(opts.body.data)), 'INVALID_REQUEST');
    // Another account's challenge.
    const theirs = await options(other);
    assertRefused(await send(key.create(theirs.body.data)), 'INVALID_REQUEST');
    // An expired one (5 minutes).
    const late = await options(s);
    t.clock.advance(301);
    assertRefused(await send(key.create(late.body.data)), 'INVALID_REQUEST');
    assert.equal((await passkeysOf(s)).total, 1);
  });

  test('registering and removing a passkey need a sign-in at most 10 minutes old; a refresh does not renew it', async () => {
    const s = await signUp(t);
    const key = new SoftAuthenticator(ORIGIN);
    assert.equal((await register(s, key)).status, 200);
    const [passkey] = (await passkeysOf(s)).passkeys;
    t.clock.advance(601);
    const refreshed = await t.request('POST', '/auth/refresh', { body: { refresh_token: s.refresh_token } });
    assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
    const later = { ...s, access_token: refreshed.body.data.access_token };
    for (const res of [
      await options(later),
      await t.request('DELETE', `/passkeys/${passkey.id}`, { token: later.access_token }),
    ]) {
      assert.equal(res.status, 403);
      assert.equal(res.body.error.code, 'FORBIDDEN');
      assert.equal(res.body.error.details.reason, 'recent_sign_in_required');
    }
    // Renaming is not guarded; signing in again makes removing possible.
    const renamed = await t.request('PATCH', `/passkeys/${passkey.id}`, {
      token: later.access_token,
      body: { name: '  Work laptop ' },
    });
    assert.equal(renamed.body.data.name, 'Work laptop');
    const again = await signInWith(key);
    const removed = await t.request('DELETE', `/passkeys/${passkey.id}`, {
      token: again.body.data.access_token,
    });
    assert.deepEqual(removed.body, { success: true, data: { deleted: true } });
    assertRefused(await signInWith(key));
  });

  test('another account’s passkey is NOT_FOUND; a name is 1-64 characters', async () => {
    const s = await signUp(t);
    const other = await signUp(t);
    assert.equal((await register(s, new SoftAuthenticator(ORIGIN))).status, 200);
    const [passkey] = (await passkeysOf(s)).passkeys;
    for (const res of [
      await t.request('PATCH', `/passkeys/${passkey.id}`, { token: other.access_token, body: { name: 'x' } }),
      await t.request('DELETE', `/passkeys/${passkey.id}`, { token: other.access_token }),
      await t.request('DELETE', '/passkeys/not-an-id', { token: s.access_token }),
    ])
      assertRefused(res, 'NOT_FOUND');
    for (const name of ['', '   ', 'x'.repeat(65)]) {
      const res = await t.request('PATCH', `/passkeys/${passkey.id}`, {
        token: s.access_token,
        body: { name },
      });
      assertRefused(res, 'INVALID_REQUEST');
      assert.equal(res.body.error.details.field, 'name');
    }
    assert.equal((await passkeysOf(s)).passkeys[0].name, 'Passkey');
  });

  test('a passkey given no name is named by its authenticator, else by the browser and system, else "Passkey"', async () => {
    const s = await signUp(t);
    const manager = new SoftAuthenticator(ORIGIN, { aaguid: 'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4' });
    assert.equal((await register(s, manager)).body.data.name, 'Google Password Manager');
    const opts = await options(s);
    const fromPhone = await t.request('POST', '/passkeys/registration', {
      token: s.access_token,
      headers: {
        'user-agent':
          'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
      },
      body: { response: new SoftAuthenticator(ORIGIN).create(opts.body.data) },
    });
    assert.equal(fromPhone.body.data.name, 'Chrome · Android');
    assert.equal((await register(s, new SoftAuthenticator(ORIGIN))).body.data.name, 'Passkey');
    assert.equal(
      (await register(s, new SoftAuthenticator(ORIGIN), {}, ' Work laptop ')).body.data.name,
      'Work laptop',
    );
  });

  test('a sign-in with a used or expired challenge, no user verification, another origin or an unknown passkey is refused', async () => {
    const s = await signUp(t);
    const key = new SoftAuthenticator(ORIGIN);
    assert.equal((await register(s, key)).status, 200);
    assertRefused(await signInWith(key, { userVerified: false }));
    assertRefused(await signInWith(key, { origin: 'https://evil.example' }));
    assertRefused(await signInWith(key, { rpId: 'evil.example' }));
    const unregistered = new SoftAuthenticator(ORIGIN);
    unregistered.create({ challenge: 'never-asked', rp: { id: 'callsign.test' }, user: { id: s.user.id } });
    assertRefused(await signInWith(unregistered));
    // A signed answer naming another account than the passkey's (its user handle is not signed).
    const other = await signUp(t);
    const handleOpts = await t.request('POST', '/auth/passkey/options', { body: {} });
    const otherHandle = key.get(handleOpts.body.data);
    otherHandle.response.userHandle = Buffer.from(other.user.id).toString('base64url');
    assertRefused(await t.request('POST', '/auth/passkey/verify', { body: { response: otherHandle } }));
    // The same signed answer twice: once only.
    const opts = await t.request('POST', '/auth/passkey/options', { body: {} });
    const answer = { response: key.get(opts.body.data) };
    const [a, b] = await Promise.all([
      t.request('POST', '/auth/passkey/verify', { body: answer }),
      t.request('POST', '/auth/passkey/verify', { body: answer }),
    ]);
    assert.deepEqual([a.status, b.status].sort(), [200, 401]);
    const late = await t.request('POST', '/auth/passkey/options', { body: {} });
    t.clock.advance(301);
    assertRefused(
      await t.request('POST', '/auth/passkey/verify', { body: { response: key.get(late.body.data) } }),
    );
  });

  test('a signature counter that goes back is refused and logged; one that is never kept is not judged', async () => {
    const s = await signUp(t);
    const key = new SoftAuthenticator(ORIGIN);
    assert.equal((await register(s, key)).status, 200);
    assert.equal((await signInWith(key)).status, 200);
    assert.equal((await signInWith(key)).status, 200);
    // An answer whose signature does not hold says nothing of clones: refused, and no warning.
    const unsignedOpts = await t.request('POST', '/auth/passkey/options', { body: {} });
    const unsigned = key.get(unsignedOpts.body.data, { counter: 1 });
    unsigned.response.signature = Buffer.alloc(64, 1).toString('base64url');
    const before = t.logs.length;
    assertRefused(await t.request('POST', '/auth/passkey/verify', { body: { response: unsigned } }));
    assert.ok(!t.logs.slice(before).some((l) => l.includes('signature counter went back')));
    const logged = t.logs.length;
    assertRefused(await signInWith(key, { counter: 2 }));
    assert.ok(t.logs.slice(logged).some((l) => l.includes('signature counter went back')));

    const synced = new SoftAuthenticator(ORIGIN, { keepsCounter: false });
    const other = await signUp(t);
    assert.equal((await register(other, synced)).status, 200);
    assert.equal((await signInWith(synced)).status, 200);
    assert.equal((await signInWith(synced)).status, 200);
  });

  test('a PIN-locked account still signs in with a passkey; an operator-locked or deleted one does not', async () => {
    const s = await signUp(t);
    const key = new SoftAuthenticator(ORIGIN);
    assert.equal((await register(s, key)).status, 200);
    for (let i = 0; i < 10; i++)
      await t.request('POST', '/auth/signin', { body: { phone: s.phone, pin: '999999' }, ip: uniqueIp() });
    const locked = await t.request('POST', '/auth/signin', { body: { phone: s.phone, pin: s.pin } });
    assertRefused(locked, 'ACCOUNT_LOCKED');
    assert.equal((await signInWith(key)).status, 200);

    await t.c.db.query('UPDATE users SET admin_locked_at = now() WHERE id = $1', [s.user.id]);
    assertRefused(await signInWith(key), 'ACCOUNT_LOCKED');
    await t.c.db.query('UPDATE users SET admin_locked_at = NULL, deleted_at = now() WHERE id = $1', [
      s.user.id,
    ]);
    assertRefused(await signInWith(key));
  });

  test('an account keeps at most 20 passkeys', async () => {
    const s = await signUp(t);
    for (let i = 0; i < 20; i++) assert.equal((await register(s, new SoftAuthenticator(ORIGIN))).status, 200);
    const over = await register(s, new SoftAuthenticator(ORIGIN));
    assert.equal(over.status, 403);
    assert.equal(over.body.error.details.reason, 'passkey_limit');
    assert.equal((await passkeysOf(s)).total, 20);
  });
});

describe('SIGNIN_METHODS', () => {
  test('a way of signing in that is off answers FORBIDDEN (method_disabled)', async () => {
    const pinOnly = await createTestApp({ env: { SIGNIN_METHODS: 'pin' } });
    try {
      const res = await pinOnly.request('POST', '/auth/passkey/options', { body: {} });
      assert.equal(res.status, 403);
      assert.equal(res.body.error.details.reason, 'method_disabled');
      // Nor is one registered while they are off: it would start to sign in the day they are turned on.
      const s = await signUp(pinOnly);
      const options = await pinOnly.request('POST', '/passkeys/registration/options', {
        token: s.access_token,
      });
      assert.equal(options.status, 403);
      assert.equal(options.body.error.details.reason, 'method_disabled');
      const key = new SoftAuthenticator(ORIGIN);
      const made = await pinOnly.request('POST', '/passkeys/registration', {
        token: s.access_token,
        body: {
          response: key.create({ challenge: 'AAAA', rp: { id: 'callsign.test' }, user: { id: 'dQ' } }),
        },
      });
      assert.equal(made.status, 403);
      assert.equal(made.body.error.details.reason, 'method_disabled');
    } finally {
      await pinOnly.close();
    }
    const passkeyOnly = await createTestApp({ env: { SIGNIN_METHODS: 'passkey' } });
    try {
      const s = await signUp(passkeyOnly);
      const res = await passkeyOnly.request('POST', '/auth/signin', { body: { phone: s.phone, pin: s.pin } });
      assert.equal(res.status, 403);
      assert.equal(res.body.error.details.reason, 'method_disabled');
    } finally {
      await passkeyOnly.close();
    }
  });
});
