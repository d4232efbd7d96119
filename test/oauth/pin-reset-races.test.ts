import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ssoSessionsRepo } from '../../src/storage/repositories/sso-sessions.ts';
import { usersRepo } from '../../src/storage/repositories/users.ts';
import { resetPinOfPhone } from '../../src/storage/rules/pin-reset.ts';
import {
  type Answer,
  createTestApp,
  type SignedUp,
  signUp,
  type TestApp,
  unrevokedSessions,
  verifiedTempToken,
} from '../helpers/app.ts';
import { meanwhileUncommitted } from '../helpers/database.ts';
import {
  ADMIN_TOKEN,
  adminRequest,
  authorizationParams,
  authorizeUrl,
  authorizeWithPin,
  exchangeCode,
  pkce,
  postSignIn,
  registerClient,
  signInForm,
} from '../helpers/oauth.ts';
import { heldAtPinCheck } from '../helpers/pin-gate.ts';

// P88: on the authorization page, what a PIN proved (a single sign-on, a code) is refused once a PIN reset
// (D10) commits; P51: once the operator's lock commits too.
describe('the authorization page and its codes against a PIN reset', () => {
  let t: TestApp;
  let pub: { client_id: string };
  let shop: { client_id: string };
  before(async () => {
    t = await createTestApp({
      env: { ADMIN_TOKEN, RATE_LIMITS: 'signin_phone=1000/900,signin_address=1000/900' },
    });
    pub = await registerClient(t, { token_endpoint_auth_method: 'none' });
    shop = await registerClient(t, { token_endpoint_auth_method: 'none', first_party: false });
  });
  after(() => t.close());

  const resetPin = async (s: SignedUp) => {
    const temp_token = await verifiedTempToken(t, s.phone, 'pin_reset');
    const res = await t.request('POST', '/auth/pin/reset', { body: { temp_token, pin: '204913' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };
  const ssoRows = async (userId: string) =>
    (await t.c.db.query('SELECT 1 FROM sso_sessions WHERE user_id = $1', [userId])).length;
  const exchange = (clientId: string, code: string, verifier: string) =>
    exchangeCode(t, clientId, code, verifier);
  /** Allows on a consent page (a third-party client's, D19). */
  /** "Allow" on the consent page the sign-in answered, with the browser's cookies (its single sign-on). */
  const allow = (consent: Answer, csrf: string) => {
    assert.match(String(consent.body), /Allow access\?/);
    const state = /name="state" value="([^"]+)"/.exec(String(consent.body))?.[1] as string;
    const sso = /callsign_sso=([^;]+)/.exec(String(consent.headers['set-cookie']))?.[1] as string;
    return t.request('POST', '/authorize/consent', {
      body: new URLSearchParams({ state, csrf, decision: 'allow' }).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `callsign_csrf=${csrf}; callsign_sso=${sso}`,
      },
    });
  };
  const assertRefusedCode = async (clientId: string, code: string, verifier: string, userId: string) => {
    const res = await exchange(clientId, code, verifier);
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.error, 'invalid_grant');
    assert.equal(res.body.error_description, 'the PIN was set again since this sign-in');
    assert.equal(await unrevokedSessions(t, userId), 1, "only the reset's own session");
  };

  for (const [what, meanwhile, answered] of [
    ['a PIN reset', (s: SignedUp) => resetPin(s), { status: 401, says: /Wrong phone number or PIN/ }],
    [
      "the operator's lock",
      async (s: SignedUp) => {
        assert.equal((await adminRequest(t, 'POST', `/users/${s.user.id}/lock`)).status, 200);
      },
      { status: 403, says: /This account is locked/ },
    ],
  ] as const)
    test(`a sign-in on the page whose PIN check began before ${what} starts no single sign-on`, async () => {
      const s = await signUp(t);
      const form = await signInForm(t, authorizationParams(pub.client_id, pkce().challenge));
      const held = await heldAtPinCheck(() => postSignIn(t, form, s));
      await meanwhile(s);
      held.release();
      const res = await held.answer;
      assert.equal(res.status, answered.status, 'the sign-in form again, not a redirect with a code');
      assert.match(String(res.body), answered.says);
      assert.doesNotMatch(String(res.headers['set-cookie'] ?? ''), /callsign_sso=/);
      assert.equal(await ssoRows(s.user.id), 0);
    });

  test('a single sign-on being written while a PIN reset is uncommitted waits for it, then is not written', async () => {
    const s = await signUp(t);
    const row = await usersRepo.findLiveById(t.c.db, s.user.id);
    const started = await meanwhileUncommitted(
      t.c.db,
      async (tx) => {
        await resetPinOfPhone(tx, s.phone, 'another hash', t.clock.now());
        await ssoSessionsRepo.removeAllOfUser(tx, s.user.id);
      },
      () =>
        t.c.authorization
          .startSso({
            userId: s.user.id,
            authTime: t.clock.now(),
            pinVersion: row?.pin_version as number,
            amr: ['pwd'],
          })
          .then(
            () => 'started',
            (err: Error) => err.message,
          ),
      '%FROM users%FOR SHARE%',
    );
    assert.equal(started, 'wrong phone number or PIN');
    assert.equal(await ssoRows(s.user.id), 0, 'no sign-on outlives the reset');
  });

  test('a code issued before a PIN reset is refused at its exchange, and opens no session', async () => {
    const s = await signUp(t);
    const { verifier, challenge } = pkce();
    const back = await authorizeWithPin(t, authorizationParams(pub.client_id, challenge), s);
    await resetPin(s);
    await assertRefusedCode(pub.client_id, back.searchParams.get('code') as string, verifier, s.user.id);
  });

  test("after a reset, the new PIN's codes open sessions: from the form, the single sign-on and the consent", async () => {
    const s = await signUp(t);
    await resetPin(s);
    const withNewPin = { phone: s.phone, pin: '204913' };
    const opens = async (clientId: string, back: Answer, verifier: string) => {
      assert.equal(back.status, 302);
      const code = new URL(String(back.headers.location)).searchParams.get('code') as string;
      const res = await exchange(clientId, code, verifier);
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };
    const first = pkce();
    const signedIn = await postSignIn(
      t,
      await signInForm(t, authorizationParams(pub.client_id, first.challenge)),
      withNewPin,
    );
    await opens(pub.client_id, signedIn, first.verifier);

    const sso = /callsign_sso=([^;]+)/.exec(String(signedIn.headers['set-cookie']))?.[1] as string;
    const second = pkce();
    const skipped = await t.request(
      'GET',
      authorizeUrl(authorizationParams(pub.client_id, second.challenge)),
      {
        headers: { cookie: `callsign_sso=${sso}` },
      },
    );
    await opens(pub.client_id, skipped, second.verifier);

    const third = pkce();
    const form = await signInForm(t, authorizationParams(shop.client_id, third.challenge));
    await opens(
      shop.client_id,
      await allow(await postSignIn(t, form, withNewPin), form.csrf),
      third.verifier,
    );
  });

  test('consent given after a PIN reset, on a page shown before it, gives no code', async () => {
    const s = await signUp(t);
    const form = await signInForm(t, authorizationParams(shop.client_id, pkce().challenge));
    const consent = await postSignIn(t, form, s);
    await resetPin(s);
    // The reset ended the single sign-on the consent page was shown under.
    const allowed = await allow(consent, form.csrf);
    assert.equal(allowed.status, 400);
    assert.equal(allowed.headers.location, undefined);
  });
});
