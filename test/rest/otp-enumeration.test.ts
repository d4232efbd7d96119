import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Answer, createTestApp, signUp, type TestApp, uniqueIp, uniquePhone } from '../helpers/app.ts';
import { ADMIN_TOKEN, authorizationParams, pkce, registerClient, signInForm } from '../helpers/oauth.ts';

/** Headers that differ between any two answers (the moment, the request's own id). */
const VOLATILE = new Set(['date', 'x-request-id', 'x-ratelimit-reset', 'retry-after']);
const comparable = (a: Answer) => ({
  status: a.status,
  body: a.body,
  headers: Object.fromEntries(Object.entries(a.headers).filter(([k]) => !VOLATILE.has(k))),
});

/** A wrong code for a number: never the code sent, if one was. */
const WRONG = '000001';

describe('ENUMERATION_PROTECTION holds on every path that checks a code', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({
      env: {
        ENUMERATION_PROTECTION: 'true',
        ADMIN_TOKEN,
        RATE_LIMITS: 'otp_send_address=1000/3600,signin_address=1000/900',
      },
    });
  });
  after(() => t.close());

  /** Sends a code for the number, then submits the wrong code six times; answers every answer. */
  const sendAndGuess = async (phone: string, purpose: 'signup' | 'pin_reset') => {
    const ip = uniqueIp();
    const answers = [await t.request('POST', '/auth/otp/send', { body: { phone, purpose }, ip })];
    for (let i = 0; i < 7; i++)
      answers.push(
        await t.request('POST', '/auth/otp/verify', { body: { phone, code: WRONG, purpose }, ip }),
      );
    return answers.map(comparable).map((a) => {
      // The masked number is the caller's own input; it differs by number, not by account.
      if (a.body?.data?.message) a.body.data.message = a.body.data.message.replace(/\d/g, '#');
      return a;
    });
  };

  test('/auth/otp/send and /auth/otp/verify: a registered and an unregistered number, both purposes, answer alike', async () => {
    const registered = (await signUp(t)).phone;
    const unregistered = uniquePhone();
    t.clock.advance(3600); // the sign-up's own code is out of this hour's per-number count
    for (const purpose of ['signup', 'pin_reset'] as const) {
      const withAccount = await sendAndGuess(registered, purpose);
      const without = await sendAndGuess(unregistered, purpose);
      assert.deepEqual(withAccount, without, purpose);
      // What both sequences are: 5 wrong codes counted down, then the code burnt, then gone.
      const verifies = without.slice(1);
      assert.deepEqual(
        verifies.map((a) => [a.status, a.body.error.code, a.body.error.details.attempts_remaining]),
        [
          [400, 'INVALID_OTP', 4],
          [400, 'INVALID_OTP', 3],
          [400, 'INVALID_OTP', 2],
          [400, 'INVALID_OTP', 1],
          [400, 'INVALID_OTP', 0],
          [429, 'RATE_LIMITED', undefined],
          [400, 'INVALID_OTP', undefined],
        ],
        purpose,
      );
    }
  });

  test(
    'a PIN reset answers before its message is carried, for a registered and an unregistered number alike',
    { timeout: 30_000 },
    async () => {
      const registered = (await signUp(t)).phone;
      const unregistered = uniquePhone();
      t.clock.advance(3600); // the sign-up's own code is out of this hour's per-number count
      const send = async (phone: string) => {
        const a = comparable(
          await t.request('POST', '/auth/otp/send', {
            body: { phone, purpose: 'pin_reset' },
            ip: uniqueIp(),
          }),
        );
        a.body.data.message = a.body.data.message.replace(/\d/g, '#');
        return a;
      };
      // The gateway holds every request: an answer that waited for it would never come.
      t.sms.holding = true;
      const delivered = t.sms.inbox.length;
      let withAccount: ReturnType<typeof comparable>;
      let without: ReturnType<typeof comparable>;
      try {
        withAccount = await send(registered);
        without = await send(unregistered);
        assert.equal(t.sms.inbox.length, delivered, 'neither answer waited for the gateway');
      } finally {
        t.sms.release();
      }
      assert.deepEqual(withAccount, without);
      await t.c.sendQueue.drain();
      assert.equal(t.sms.messagesTo(unregistered).length, 0);
      const verified = await t.request('POST', '/auth/otp/verify', {
        body: { phone: registered, code: t.sms.lastCode(registered), purpose: 'pin_reset' },
        ip: uniqueIp(),
      });
      assert.equal(verified.status, 200, 'the owner’s code came, after the answer');
    },
  );

  test('the hosted sign-up page answers a registered number as any other', async () => {
    const client = await registerClient(t, { token_endpoint_auth_method: 'none' });
    const registered = (await signUp(t)).phone;
    const pageFor = async (phone: string) => {
      const { state, csrf } = await signInForm(t, authorizationParams(client.client_id, pkce().challenge));
      const form = (path: string, fields: Record<string, string>, s: string) =>
        t.request('POST', path, {
          body: new URLSearchParams({ state: s, csrf, ...fields }).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `callsign_csrf=${csrf}` },
        });
      const sent = await form('/authorize/signup/send', { phone }, state);
      const codeState = /name="state" value="([^"]+)"/.exec(String(sent.body))?.[1] as string;
      const guessed = await form('/authorize/signup/verify', { code: WRONG }, codeState);
      // The sealed state (also in the language menu's way back) and the masked number differ by request and by
      // number, not by account.
      const page = (a: Answer) =>
        String(a.body)
          .replace(/name="state" value="[^"]+"/g, '')
          .replace(/name="csrf" value="[^"]+"/g, '')
          .replace(/name="back" value="[^"]+"/g, '')
          .replace(/\?state=[^"]+"/g, '"')
          .replace(/\+?[\d*][\d* ]+\d/g, '#');
      return [sent.status, page(sent), guessed.status, page(guessed)];
    };
    const withAccount = await pageFor(registered);
    assert.deepEqual(withAccount, await pageFor(uniquePhone()));
    assert.equal(withAccount[2], 400);
    assert.match(String(withAccount[3]), /code is wrong/i);
  });

  test('/users/me/phone/confirm answers a number another account has as any other', async () => {
    const other = (await signUp(t)).phone;
    t.clock.advance(3600); // its sign-up's code is out of this hour's per-number count
    const moveTo = async (phone: string) => {
      const s = await signUp(t);
      const ip = uniqueIp();
      const started = await t.request('POST', '/users/me/phone', {
        token: s.access_token,
        body: { phone },
        ip,
      });
      const confirm = await t.request('POST', '/users/me/phone/confirm', {
        token: s.access_token,
        body: { phone, code: WRONG, pin: s.pin },
        ip,
      });
      const strip = (a: Answer) => {
        const c = comparable(a);
        if (c.body?.data?.message) c.body.data.message = c.body.data.message.replace(/\d/g, '#');
        return c;
      };
      return [strip(started), strip(confirm)];
    };
    const taken = await moveTo(other);
    assert.deepEqual(taken, await moveTo(uniquePhone()));
    assert.equal(taken[1].body.error.details.attempts_remaining, 4);
  });
});

test('a PIN reset sent after the answer still spends the day’s budget: past it, nothing goes and it is logged', async () => {
  const t = await createTestApp({ env: { ENUMERATION_PROTECTION: 'true', SMS_DAILY_LIMIT: '1' } });
  try {
    const { phone } = await signUp(t); // the sign-up's code is the day's one message
    const before = t.sms.messagesTo(phone).length;
    const reset = await t.request('POST', '/auth/otp/send', {
      body: { phone, purpose: 'pin_reset' },
      ip: uniqueIp(),
    });
    assert.equal(reset.status, 200, 'the answer is the same as ever');
    await t.c.sendQueue.drain();
    assert.equal(t.sms.messagesTo(phone).length, before, 'nothing past the budget');
    assert.ok(t.logs.some((line) => line.includes('a code was not sent')));
  } finally {
    await t.close();
  }
});
