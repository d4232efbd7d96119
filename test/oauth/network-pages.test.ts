import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Answer, signUp, type TestApp, uniquePhone } from '../helpers/app.ts';
import { FakeOperator } from '../helpers/fake-operator.ts';
import {
  type NetworkApp,
  type NetworkProvider,
  networkApp,
  PHONE_ADDRESS,
  WIFI_ADDRESS,
} from '../helpers/network-app.ts';
import { ADMIN_TOKEN, authorizationParams, pkce, registerClient, signInForm } from '../helpers/oauth.ts';

// The hosted pages' silent step over plain HTTP: a phone's browser is sent through the operator and comes back
// under the pages' own path, at the next step with no code typed; on Wi-Fi, one code and "We've sent you a code
// instead"; a desktop browser, and Twilio (whose page never sends the browser back), get the code at once; the
// state carried is this browser's only.

const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/125.0 Mobile Safari/537.36';
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/125.0 Safari/537.36';

const form = (csrf: string, fields: Record<string, string>, userAgent = ANDROID) => ({
  body: new URLSearchParams({ csrf, ...fields }).toString(),
  headers: {
    'content-type': 'application/x-www-form-urlencoded',
    cookie: `callsign_csrf=${csrf}`,
    'user-agent': userAgent,
  },
});

/** The operator's URL the checking page refreshes to. */
const operatorUrlOf = (page: Answer) =>
  (/http-equiv="refresh" content="0;url=([^"]+)"/.exec(String(page.body))?.[1] ?? '').replaceAll(
    '&amp;',
    '&',
  );

function hostedFlow(provider: NetworkProvider) {
  let n: NetworkApp;
  let t: TestApp;
  let clientId: string;
  before(async () => {
    n = await networkApp({ ADMIN_TOKEN, SIGNIN_METHODS: 'pin,passkey,code' }, provider);
    t = n.t;
    clientId = (await registerClient(t, { token_endpoint_auth_method: 'none' })).client_id;
  });
  after(() => n?.close());

  /** The phone step's "Continue" for a purpose, from a browser of `userAgent`. */
  async function phoneStep(phone: string, purpose: string, userAgent = ANDROID) {
    const { state, csrf } = await signInForm(t, authorizationParams(clientId, pkce().challenge));
    const page = await t.request(
      'POST',
      '/authorize/signup/send',
      form(csrf, { state, phone, purpose }, userAgent),
    );
    return { page, csrf };
  }

  /** The browser at `address` goes through the operator and back to the pages, as its vendor sends it. */
  async function throughOperator(page: Answer, csrf: string, address: string) {
    const sent = await FakeOperator.follow(operatorUrlOf(page), address);
    assert.equal(sent.status, 302, `the vendor answered ${sent.status}`);
    const back = new URL(sent.location ?? '');
    assert.equal(back.pathname, '/authorize/network/callback');
    const headers = { cookie: `callsign_csrf=${csrf}` };
    const landed = await t.request('GET', `${back.pathname}${back.search}`, { headers });
    if (!back.hash) return landed;
    const state = /name="state" value="([^"]+)"/.exec(String(landed.body))?.[1] ?? '';
    const answer = Object.fromEntries(new URLSearchParams(back.hash.slice(1)));
    return t.request('POST', back.pathname, form(csrf, { state, ...answer }));
  }
  return { phoneStep, throughOperator, n: () => n, t: () => t };
}

for (const provider of ['camara', 'vonage'] satisfies NetworkProvider[])
  describe(`hosted pages: the silent step (${provider})`, () => {
    const { phoneStep, throughOperator, n, t } = hostedFlow(provider);

    test('a phone holding the number: the account step, no code typed or sent', async () => {
      const phone = uniquePhone();
      n().vendor.phones.set(PHONE_ADDRESS, phone);
      const { page, csrf } = await phoneStep(phone, 'signup');
      assert.equal(page.status, 200, String(page.body));
      assert.match(String(page.body), /Checking your number with your mobile network…/);
      const next = await throughOperator(page, csrf, PHONE_ADDRESS);
      assert.equal(next.status, 200, String(next.body));
      assert.match(String(next.body), /name="handle"/);
      assert.equal(t().sms.messagesTo(phone).length, 0);
    });

    test('a sign-in by code and a PIN reset go on with no code typed', async () => {
      const { phone } = await signUp(t());
      n().vendor.phones.set(PHONE_ADDRESS, phone);
      const sent = t().sms.messagesTo(phone).length;
      const signIn = await phoneStep(phone, 'signin');
      const signedIn = await throughOperator(signIn.page, signIn.csrf, PHONE_ADDRESS);
      assert.equal(signedIn.status, 302, String(signedIn.body));
      assert.match(String(signedIn.headers.location), /^https:\/\/rp.example\/callback\?code=/);
      assert.doesNotMatch(String(signedIn.body), /name="code"/);
      const reset = await phoneStep(phone, 'pin_reset');
      const newPin = await throughOperator(reset.page, reset.csrf, PHONE_ADDRESS);
      assert.match(String(newPin.body), /name="pin"/);
      assert.equal(t().sms.messagesTo(phone).length, sent);
    });

    test('on Wi-Fi: one code, and the code step says so', async () => {
      const phone = uniquePhone();
      const { page, csrf } = await phoneStep(phone, 'signup');
      const next = await throughOperator(page, csrf, WIFI_ADDRESS);
      assert.match(String(next.body), /We’ve sent you a code instead\./);
      assert.match(String(next.body), /name="code"/);
      assert.equal(t().sms.messagesTo(phone).length, 1);
    });

    test('a desktop browser gets the code at once; another browser cannot use the return', async () => {
      const desk = uniquePhone();
      const { page } = await phoneStep(desk, 'signup', DESKTOP);
      assert.match(String(page.body), /name="code"/);
      assert.equal(t().sms.messagesTo(desk).length, 1);
      const phone = uniquePhone();
      n().vendor.phones.set(PHONE_ADDRESS, phone);
      const started = await phoneStep(phone, 'signup');
      const stranger = await signInForm(t(), authorizationParams('unknown', 'x'));
      const stolen = await throughOperator(started.page, stranger.csrf ?? 'another-browser', PHONE_ADDRESS);
      assert.equal(stolen.status, 400);
      assert.doesNotMatch(String(stolen.body), /name="handle"/);
    });
  });

describe('hosted pages: Twilio sends no browser back, so the pages send a code', () => {
  const { phoneStep, t } = hostedFlow('twilio');
  test('a phone browser gets the code step at once', async () => {
    const phone = uniquePhone();
    const { page } = await phoneStep(phone, 'signup');
    assert.match(String(page.body), /name="code"/);
    assert.equal(t().sms.messagesTo(phone).length, 1);
  });
});
