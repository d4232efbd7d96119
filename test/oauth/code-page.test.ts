import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { translate } from '../../src/i18n/languages.ts';
import { type Answer, createTestApp, type TestApp, uniquePhone } from '../helpers/app.ts';
import {
  ADMIN_TOKEN,
  authorizationParams,
  pageField,
  pkce,
  postPageForm,
  registerClient,
  signInForm,
} from '../helpers/oauth.ts';

// The code page's ways on, over plain HTTP: "Send a new code" (30 seconds after the last), "Change number", and
// an expired or used-up code that offers a new one instead of a restart.

describe('hosted pages: the code page', () => {
  let t: TestApp;
  let clientId: string;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN } });
    clientId = (await registerClient(t, { token_endpoint_auth_method: 'none' })).client_id;
  });
  after(() => t.close());

  const says = (
    page: Answer,
    key: Parameters<typeof translate>[1],
    values?: Record<string, string | number>,
  ) => assert.ok(String(page.body).includes(translate('en', key, values)), `${key} in ${page.body}`);

  /** A sign-up's code page for a new number. */
  async function codePageFor(phone: string) {
    const { state, csrf } = await signInForm(t, authorizationParams(clientId, pkce().challenge));
    const page = await postPageForm(t, '/authorize/signup/send', csrf, { state, phone });
    assert.equal(page.status, 200, String(page.body));
    return { page, csrf };
  }

  test('"Send a new code" waits 30 seconds after the last, then sends one', async () => {
    const phone = uniquePhone();
    const { page, csrf } = await codePageFor(phone);
    assert.match(String(page.body), /data-wait-seconds="30">Send a new code<\/button>/);
    assert.match(String(page.body), /<script src="\/assets\/resend.js" defer><\/script>/);
    t.clock.advance(20);
    const early = await postPageForm(t, '/authorize/code/resend', csrf, { state: pageField(page) });
    assert.equal(early.status, 429);
    assert.equal(early.headers['retry-after'], '10');
    says(early, 'code.resend_wait', { seconds: 10 });
    assert.match(String(early.body), /data-wait-seconds="10"/);
    assert.equal(t.sms.messagesTo(phone).length, 1, 'nothing sent early');
    t.clock.advance(10);
    const again = await postPageForm(t, '/authorize/code/resend', csrf, { state: pageField(page) });
    assert.equal(again.status, 200, String(again.body));
    assert.equal(t.sms.messagesTo(phone).length, 2);
    assert.match(String(again.body), /data-wait-seconds="30"/);
    // The new code goes on to the account step.
    const verified = await postPageForm(t, '/authorize/signup/verify', csrf, {
      state: pageField(again),
      code: t.sms.lastCode(phone),
    });
    assert.match(String(verified.body), /name="handle"/);
  });

  test('"Change number" goes back to the phone step of the same flow', async () => {
    const { page } = await codePageFor(uniquePhone());
    const href = /<a href="([^"]+)">Change number<\/a>/.exec(String(page.body))?.[1] as string;
    assert.match(href, /^\/authorize\/signup\?state=/);
    const back = await t.request('GET', href.replaceAll('&amp;', '&'), {
      headers: { cookie: `callsign_csrf=${/name="csrf" value="([^"]+)"/.exec(String(page.body))?.[1]}` },
    });
    assert.equal(back.status, 200);
    assert.match(String(back.body), /name="phone"/);
  });

  test('an expired code says so and offers a new one; a code tried too often is used up', async () => {
    const phone = uniquePhone();
    const { page, csrf } = await codePageFor(phone);
    const code = t.sms.lastCode(phone);
    t.clock.advance(301);
    const expired = await postPageForm(t, '/authorize/signup/verify', csrf, { state: pageField(page), code });
    says(expired, 'error.code_expired');
    assert.match(String(expired.body), />Send a new code<\/button>/);
    const fresh = await postPageForm(t, '/authorize/code/resend', csrf, { state: pageField(expired) });
    for (let i = 0; i < 4; i++)
      await postPageForm(t, '/authorize/signup/verify', csrf, { state: pageField(fresh), code: '000000' });
    const burnt = await postPageForm(t, '/authorize/signup/verify', csrf, {
      state: pageField(fresh),
      code: '000001',
    });
    says(burnt, 'error.code_used_up');
    assert.match(String(burnt.body), />Send a new code<\/button>/);
  });
});
