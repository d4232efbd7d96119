import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { translate } from '../../src/i18n/languages.ts';
import { createTestApp, events, type SignedUp, signUp, type TestApp, uniqueIp } from '../helpers/app.ts';
import {
  ADMIN_TOKEN,
  authorizationParams,
  exchangeCode,
  pkce,
  postPageForm,
  registerClient,
  signInForm,
} from '../helpers/oauth.ts';

// SIGNIN_METHODS means what it says on every surface: a way that is off is neither shown nor accepted, and
// where PINs are off there is no PIN to reset: a recovery code signs in once instead.

const LIMITS =
  'signin_address=1000/900,signin_phone=1000/900,otp_send_phone=100/3600,otp_send_address=1000/3600';

/** Sets of recovery codes, made with the PIN (a confirmation, which PINs being off does not remove). */
async function recoveryCodes(t: TestApp, s: SignedUp): Promise<string[]> {
  const made = await t.request('POST', '/users/me/recovery-codes', {
    token: s.access_token,
    body: { pin: s.pin },
  });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  return made.body.data.codes;
}

const assertMethodDisabled = (res: { status: number; body: unknown }, what: string) => {
  assert.equal(res.status, 403, `${what}: ${JSON.stringify(res.body)}`);
  assert.equal(
    (res.body as { error: { details: { reason: string } } }).error.details.reason,
    'method_disabled',
    what,
  );
};

for (const methods of ['passkey,code', 'passkey']) {
  describe(`SIGNIN_METHODS=${methods}: no PIN anywhere`, () => {
    let t: TestApp;
    let clientId: string;
    before(async () => {
      t = await createTestApp({ env: { ADMIN_TOKEN, SIGNIN_METHODS: methods, RATE_LIMITS: LIMITS } });
      clientId = (await registerClient(t, { token_endpoint_auth_method: 'none' })).client_id;
    });
    after(() => t.close());

    const start = async () => {
      const { verifier, challenge } = pkce();
      return { ...(await signInForm(t, authorizationParams(clientId, challenge))), verifier };
    };

    test('the hosted sign-in page shows no PIN field and no "Forgot PIN?", and its PIN form gives no code', async () => {
      const s = await signUp(t);
      const f = await start();
      const html = String(f.page.body);
      assert.doesNotMatch(html, /name="pin"/);
      assert.doesNotMatch(html, /Forgot PIN\?/);
      assert.match(html, /href="\/authorize\/recovery\?state=/);
      if (methods.includes('code')) assert.match(html, /name="purpose" value="signin"/);
      const posted = await postPageForm(t, '/authorize/signin', f.csrf, {
        state: f.state,
        phone: s.phone,
        pin: s.pin,
      });
      assert.notEqual(posted.status, 302, 'a PIN signs in nowhere');
      assert.doesNotMatch(String(posted.headers.location ?? ''), /code=/);
    });

    test('REST: PIN sign-in, the PIN reset by code and by recovery code answer method_disabled', async () => {
      const s = await signUp(t);
      const codes = await recoveryCodes(t, s);
      const ip = uniqueIp();
      const sent = t.sms.messagesTo(s.phone).length;
      const signIn = await t.request('POST', '/auth/signin', { body: { phone: s.phone, pin: s.pin } });
      assertMethodDisabled(signIn, 'PIN sign-in');
      const send = await t.request('POST', '/auth/otp/send', {
        body: { phone: s.phone, purpose: 'pin_reset' },
        ip,
      });
      assertMethodDisabled(send, 'a reset code');
      assert.equal(t.sms.messagesTo(s.phone).length, sent, 'no code went');
      const verify = await t.request('POST', '/auth/otp/verify', {
        body: { phone: s.phone, purpose: 'pin_reset', code: '123456' },
        ip,
      });
      assertMethodDisabled(verify, 'a reset code checked');
      const byRecovery = await t.request('POST', '/auth/pin/reset', {
        body: { phone: s.phone, recovery_code: codes[0], pin: '736251' },
      });
      assertMethodDisabled(byRecovery, 'a reset by recovery code');
      const byToken = await t.request('POST', '/auth/pin/reset', {
        body: { temp_token: 'x'.repeat(43), pin: '736251' },
      });
      assertMethodDisabled(byToken, 'a reset by temp token');
      const change = await t.request('POST', '/users/me/pin', {
        token: s.access_token,
        body: { current_pin: s.pin, new_pin: '736251' },
      });
      assertMethodDisabled(change, 'a PIN change');
    });

    test('REST: a recovery code signs in once, as a recovery code, told to the phone', async () => {
      const s = await signUp(t);
      const codes = await recoveryCodes(t, s);
      const before = t.sms.messagesTo(s.phone).length;
      const body = { phone: s.phone, recovery_code: codes[2], device: { platform: 'android' } };
      const [a, b] = await Promise.all([
        t.request('POST', '/auth/signin', { body }),
        t.request('POST', '/auth/signin', { body }),
      ]);
      assert.deepEqual([a.status, b.status].sort(), [200, 401], 'one code signs in once');
      const signedIn = a.status === 200 ? a : b;
      assert.equal(signedIn.body.data.user.id, s.user.id);
      assert.deepEqual(decodeJwt(signedIn.body.data.access_token).amr, ['otp']);
      const used = (await events(t, 'recovery_code.used')).filter((e) => e.data.user_id === s.user.id);
      assert.equal(used.length, 1);
      assert.equal(used[0]?.data.remaining, 9);
      assert.equal(t.sms.messagesTo(s.phone).length, before + 1);
      assert.equal(t.sms.messagesTo(s.phone).at(-1), translate('en', 'phone.signed_in_by_recovery_code'));
      const wrong = await t.request('POST', '/auth/signin', {
        body: { phone: s.phone, recovery_code: 'AAAAA-AAAAA' },
      });
      assert.equal(wrong.body.error.code, 'INVALID_CREDENTIALS');
    });

    test('the hosted pages: a recovery code signs in on /authorize/recovery; the reset pages give nothing', async () => {
      const s = await signUp(t);
      const codes = await recoveryCodes(t, s);
      const f = await start();
      const page = await t.request('GET', `/authorize/recovery?state=${encodeURIComponent(f.state)}`, {
        headers: { cookie: `callsign_csrf=${f.csrf}` },
      });
      assert.equal(page.status, 200);
      assert.match(String(page.body), /name="recovery_code"/);
      const back = await postPageForm(t, '/authorize/recovery', f.csrf, {
        state: f.state,
        phone: s.phone,
        recovery_code: codes[5],
      });
      assert.equal(back.status, 302, String(back.body));
      const code = new URL(String(back.headers.location)).searchParams.get('code') as string;
      const tokens = await exchangeCode(t, clientId, code, f.verifier);
      assert.equal(decodeJwt(tokens.body.id_token).sub, s.user.id);
      const reset = await postPageForm(t, '/authorize/signup/send', f.csrf, {
        state: f.state,
        phone: s.phone,
        purpose: 'pin_reset',
      });
      assert.notEqual(reset.status, 302);
      assert.equal(t.sms.messagesTo(s.phone).at(-1), translate('en', 'phone.signed_in_by_recovery_code'));
    });
  });
}

describe('SIGNIN_METHODS with pin: a recovery code resets the PIN and does not sign in by itself', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN, RATE_LIMITS: LIMITS } });
  });
  after(() => t.close());

  test('{phone, recovery_code} at /auth/signin answers method_disabled, and the code stays unused', async () => {
    const s = await signUp(t);
    const codes = await recoveryCodes(t, s);
    const signIn = await t.request('POST', '/auth/signin', {
      body: { phone: s.phone, recovery_code: codes[0] },
    });
    assertMethodDisabled(signIn, 'a recovery code’s sign-in');
    const status = await t.request('GET', '/users/me/recovery-codes', { token: s.access_token });
    assert.equal(status.body.data.remaining, 10);
  });
});
