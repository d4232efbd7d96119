import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CallsignError, CallsignNetworkError, createClient, memoryStorage } from '@callsign/client';
import { uniqueHandle, uniquePhone, unrevokedSessions } from '../helpers/app.ts';
import {
  CLIENT_PIN,
  countingFetch,
  heard,
  type ListeningApp,
  listeningApp,
  signUpWith,
} from '../helpers/client-app.ts';
import { freePort } from '../helpers/free-port.ts';

// @callsign/client's sign-in methods against a real Callsign over HTTP: codes, sign-up, the PIN, a code, a PIN
// reset by code and by recovery code, sign-out; its session, events and errors.

describe('@callsign/client: signing in and out', () => {
  let s: ListeningApp;
  before(async () => {
    s = await listeningApp({ SIGNIN_METHODS: 'pin,passkey,code' });
  });
  after(() => s.t.close());

  const newClient = (extra: Partial<Parameters<typeof createClient>[0]> = {}) =>
    createClient({ baseUrl: s.baseUrl, storage: memoryStorage(), ...extra });

  test('sign-up: a code sent and verified, the account made, its session stored and told', async () => {
    const storage = memoryStorage();
    const client = newClient({ storage, device: { name: 'Test phone', platform: 'android' } });
    const events = heard(client);
    const phone = uniquePhone();
    const sent = await client.auth.sendCode({ phone, purpose: 'signup', language: 'en' });
    assert.equal(sent.channel, 'sms');
    assert.equal(sent.expiresIn, 300);
    const verified = await client.auth.verifyCode({
      phone,
      code: s.t.sms.lastCode(phone),
      purpose: 'signup',
    });
    assert.equal(typeof verified.tempToken, 'string');
    const handle = uniqueHandle();
    const session = await client.auth.signUp({ tempToken: verified.tempToken, pin: CLIENT_PIN, handle });
    assert.equal(session.user.handle, handle);
    assert.equal(session.user.phone, phone);
    assert.equal(session.user.phone_verified, true, 'the whole account, not the sign-up answer’s part');
    assert.ok(session.expiresAt > Date.now() + 800_000 && session.expiresAt <= Date.now() + 900_000);
    assert.deepEqual(await client.auth.getSession(), session);
    assert.equal(await client.auth.getAccessToken(), session.accessToken);
    const stored = await storage.getItem(`callsign:${s.baseUrl}:session`);
    assert.deepEqual(JSON.parse(String(stored)), session);
    assert.deepEqual(
      events.map((e) => e.type),
      ['SIGNED_IN'],
    );
    const listed = await client.sessions.list();
    assert.equal(listed.sessions[0].device_name, 'Test phone', 'the device given to createClient');
  });

  test('sign-in with the PIN, and a wrong PIN as a CallsignError with the answer’s code, status and request id', async () => {
    const first = await signUpWith(s.t, newClient());
    const client = newClient();
    const session = await client.auth.signIn({ phone: first.user.phone, pin: CLIENT_PIN });
    assert.equal(session.user.id, first.user.id);
    const wrong = await client.auth.signIn({ phone: first.user.phone, pin: '111333' }).catch((e) => e);
    assert.ok(wrong instanceof CallsignError);
    assert.equal(wrong.code, 'INVALID_CREDENTIALS');
    assert.equal(wrong.status, 401);
    assert.match(String(wrong.requestId), /^[\w-]{8,}$/);
    assert.equal(typeof wrong.details, 'object');
    assert.deepEqual(
      await client.auth.getSession(),
      session,
      'a refused sign-in keeps the session there was',
    );
    const invalid = await client.auth.sendCode({ phone: '12', purpose: 'signup' }).catch((e) => e);
    assert.equal(invalid.code, 'INVALID_PHONE');
    assert.equal(invalid.details.field, 'phone');
  });

  test('sign-in with a code, where the service offers it', async () => {
    const first = await signUpWith(s.t, newClient());
    const client = newClient();
    const { phone } = first.user;
    await client.auth.sendCode({ phone, purpose: 'signin' });
    const { tempToken } = await client.auth.verifyCode({
      phone,
      code: s.t.sms.lastCode(phone),
      purpose: 'signin',
    });
    const session = await client.auth.signInWithCode({ tempToken });
    assert.equal(session.user.id, first.user.id);
  });

  test('a new PIN by a code, and by a recovery code; each signs in', async () => {
    const owner = newClient();
    const first = await signUpWith(s.t, owner);
    const { phone } = first.user;
    const client = newClient();
    await client.auth.sendCode({ phone, purpose: 'pin_reset' });
    const { tempToken } = await client.auth.verifyCode({
      phone,
      code: s.t.sms.lastCode(phone),
      purpose: 'pin_reset',
    });
    const byCode = await client.auth.resetPin({ tempToken, pin: '729164' });
    assert.equal(byCode.user.id, first.user.id);
    await assert.rejects(owner.auth.signIn({ phone, pin: CLIENT_PIN }), { code: 'INVALID_CREDENTIALS' });
    const { codes } = await client.recoveryCodes.create({ pin: '729164' });
    const byRecovery = await newClient().auth.resetPin({ phone, recoveryCode: codes[0], pin: '836251' });
    assert.equal(byRecovery.user.id, first.user.id);
    assert.equal((await newClient().auth.signIn({ phone, pin: '836251' })).user.id, first.user.id);
  });

  test('sign-out ends the session on the server and here, tells the listeners and onSessionEnd', async () => {
    const ended: string[] = [];
    const client = newClient({ onSessionEnd: (reason) => ended.push(reason) });
    const session = await signUpWith(s.t, client);
    const events = heard(client);
    const unsubscribed = heard(client);
    const stop = client.auth.onChange(() => assert.fail('unsubscribed'));
    stop();
    assert.equal(await unrevokedSessions(s.t, session.user.id), 1);
    await client.auth.signOut();
    assert.equal(await unrevokedSessions(s.t, session.user.id), 0);
    assert.equal(await client.auth.getSession(), null);
    assert.equal(await client.auth.getAccessToken(), null);
    assert.deepEqual(events, [{ type: 'SIGNED_OUT', session: null, reason: 'signed_out' }]);
    assert.equal(unsubscribed.length, 1);
    assert.deepEqual(ended, ['signed_out']);
    await assert.rejects(client.users.me(), { code: 'NOT_SIGNED_IN', status: 0 });
  });

  test('a call that needs a user sends nothing without one', async () => {
    const counting = countingFetch();
    const client = newClient({ fetch: counting.fetch });
    await assert.rejects(
      client.sessions.list(),
      (e) => e instanceof CallsignError && e.code === 'NOT_SIGNED_IN',
    );
    assert.equal(counting.count('GET /sessions'), 0);
  });

  test('no answer, or one that is not Callsign’s, is a CallsignNetworkError', async () => {
    const nowhere = createClient({
      baseUrl: `http://127.0.0.1:${await freePort()}`,
      storage: memoryStorage(),
    });
    const refused = await nowhere.auth.sendCode({ phone: uniquePhone(), purpose: 'signup' }).catch((e) => e);
    assert.ok(refused instanceof CallsignNetworkError, String(refused));
    const proxyPage = async () => new Response('<html>Bad gateway</html>', { status: 502 });
    const proxied = newClient({ fetch: proxyPage });
    const answer = await proxied.auth.sendCode({ phone: uniquePhone(), purpose: 'signup' }).catch((e) => e);
    assert.ok(answer instanceof CallsignNetworkError);
    assert.match(answer.message, /502/);
  });
});

describe('@callsign/client: a send that asks for a proof of work', () => {
  let s: ListeningApp;
  before(async () => {
    s = await listeningApp({ CHALLENGE_MODE: 'always', CHALLENGE_MAX_NUMBER: '2000' });
  });
  after(() => s.t.close());

  test('CHALLENGE_REQUIRED carries a challenge; challenges.solve answers it and the send goes', async () => {
    const client = createClient({ baseUrl: s.baseUrl, storage: memoryStorage() });
    const phone = uniquePhone();
    const asked = await client.auth.sendCode({ phone, purpose: 'signup' }).catch((e) => e);
    assert.equal(asked.code, 'CHALLENGE_REQUIRED');
    const challengeSolution = await client.challenges.solve(asked.details.challenge);
    const sent = await client.auth.sendCode({ phone, purpose: 'signup', challengeSolution });
    assert.equal(sent.channel, 'sms');
    const fresh = await client.challenges.get();
    const again = await client.challenges.solve(fresh);
    await client.auth.sendCode({ phone: uniquePhone(), purpose: 'signup', challengeSolution: again });
    await assert.rejects(client.challenges.solve({ provider: 'turnstile', site_key: 'x' }), TypeError);
  });
});
