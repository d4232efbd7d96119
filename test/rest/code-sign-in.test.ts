import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { createTestApp, events, signUp, type TestApp, uniqueIp, uniquePhone } from '../helpers/app.ts';

// Signing in with a code to the phone (SIGNIN_METHODS with `code`): purpose signin on /auth/otp/send and
// /verify, then /auth/signin with the temp token.

const METHODS = 'pin,passkey,code';

describe('sign in with a code to the phone', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({
      env: { SIGNIN_METHODS: METHODS, RATE_LIMITS: 'signin_address=1000/900,signin_phone=1000/900' },
    });
  });
  after(() => t.close());

  /** A temp token for a code with this purpose, sent to the phone and verified. */
  async function tempTokenFor(phone: string, purpose = 'signin') {
    const ip = uniqueIp();
    const sent = await t.request('POST', '/auth/otp/send', { body: { phone, purpose }, ip });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const code = t.sms.lastCode(phone);
    const verified = await t.request('POST', '/auth/otp/verify', { body: { phone, purpose, code }, ip });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    return verified.body.data.temp_token as string;
  }

  const signInWith = (temp_token: string, extra: Record<string, unknown> = {}) =>
    t.request('POST', '/auth/signin', { body: { temp_token, ...extra }, ip: uniqueIp() });

  test('a verified code signs in like a PIN: the same answer and event, amr otp and sms; the token once', async () => {
    const s = await signUp(t);
    const tempToken = await tempTokenFor(s.phone);
    const before = (await events(t, 'session.created')).length;
    const signedIn = await signInWith(tempToken, { device: { name: 'Pixel 8', platform: 'android' } });
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
    assert.deepEqual(Object.keys(signedIn.body.data).sort(), [
      'access_token',
      'expires_in',
      'refresh_token',
      'user',
    ]);
    assert.equal(signedIn.body.data.user.id, s.user.id);
    const claims = decodeJwt(signedIn.body.data.access_token);
    assert.deepEqual([claims.amr, claims.acr], [['otp', 'sms'], 'urn:callsign:acr:1fa']);
    assert.equal((await events(t, 'session.created')).length, before + 1);
    const again = await signInWith(tempToken);
    assert.equal(again.status, 401);
    assert.equal(again.body.error.code, 'INVALID_TOKEN');
  });

  test('two sign-ins with one temp token at once: exactly one session', async () => {
    const s = await signUp(t);
    const tempToken = await tempTokenFor(s.phone);
    const answers = await Promise.all([signInWith(tempToken), signInWith(tempToken), signInWith(tempToken)]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 401, 401]);
  });

  test('an unknown number answers PHONE_NOT_FOUND and gets no code', async () => {
    const phone = uniquePhone();
    const sent = await t.request('POST', '/auth/otp/send', { body: { phone, purpose: 'signin' } });
    assert.equal(sent.body.error.code, 'PHONE_NOT_FOUND');
    assert.deepEqual(t.sms.messagesTo(phone), []);
  });

  test('a locked PIN does not stop a code’s sign-in, and stays locked', async () => {
    const s = await signUp(t);
    const ip = uniqueIp();
    let last: Awaited<ReturnType<typeof t.request>> | undefined;
    for (let i = 0; i < 10; i++)
      last = await t.request('POST', '/auth/signin', { body: { phone: s.phone, pin: '918273' }, ip });
    assert.equal(last?.body.error.code, 'ACCOUNT_LOCKED');
    const signedIn = await signInWith(await tempTokenFor(s.phone));
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
    const pin = await t.request('POST', '/auth/signin', {
      body: { phone: s.phone, pin: s.pin },
      ip: uniqueIp(),
    });
    assert.equal(pin.body.error.code, 'ACCOUNT_LOCKED');
  });

  test('a temp token of another purpose does not sign in; phone and PIN beside a temp token are refused', async () => {
    const s = await signUp(t);
    const reset = await tempTokenFor(s.phone, 'pin_reset');
    assert.equal((await signInWith(reset)).body.error.code, 'INVALID_TOKEN');
    const both = await signInWith(await tempTokenFor(s.phone), { phone: s.phone, pin: s.pin });
    assert.equal(both.status, 400);
    const neither = await t.request('POST', '/auth/signin', { body: { phone: s.phone } });
    assert.equal(neither.body.error.code, 'INVALID_REQUEST');
    assert.equal(neither.body.error.details.field, 'pin');
  });

  test('an account the operator locked cannot sign in with a code', async () => {
    const s = await signUp(t);
    const tempToken = await tempTokenFor(s.phone);
    await t.c.db.query('UPDATE users SET admin_locked_at = now() WHERE id = $1', [s.user.id]);
    assert.equal((await signInWith(tempToken)).body.error.code, 'ACCOUNT_LOCKED');
  });
});

describe('sign in with a code under ENUMERATION_PROTECTION', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { SIGNIN_METHODS: METHODS, ENUMERATION_PROTECTION: 'true' } });
  });
  after(() => t.close());

  test('an unknown number gets the same answer as a known one, and no code', async () => {
    const s = await signUp(t);
    const unknown = uniquePhone();
    const known = await t.request('POST', '/auth/otp/send', { body: { phone: s.phone, purpose: 'signin' } });
    const stranger = await t.request('POST', '/auth/otp/send', {
      body: { phone: unknown, purpose: 'signin' },
    });
    await t.c.sendQueue.drain();
    assert.equal(stranger.status, known.status);
    assert.deepEqual(Object.keys(stranger.body.data).sort(), Object.keys(known.body.data).sort());
    assert.deepEqual(t.sms.messagesTo(unknown), []);
    assert.equal(t.sms.messagesTo(s.phone).length, 2, 'the sign-up code and the sign-in code');
  });
});

describe('sign in with a code where SIGNIN_METHODS leaves it off (the default)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('purpose signin and a temp token sign-in answer FORBIDDEN method_disabled', async () => {
    const s = await signUp(t);
    const sent = await t.request('POST', '/auth/otp/send', { body: { phone: s.phone, purpose: 'signin' } });
    assert.equal(sent.status, 403);
    assert.equal(sent.body.error.details.reason, 'method_disabled');
    assert.deepEqual(t.sms.messagesTo(s.phone).length, 1, 'only the sign-up code');
    const signIn = await t.request('POST', '/auth/signin', { body: { temp_token: 'x'.repeat(43) } });
    assert.equal(signIn.body.error.details.reason, 'method_disabled');
  });
});
