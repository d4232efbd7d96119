import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type SignedUp, signUp, type TestApp } from '../helpers/app.ts';
import {
  ADMIN_TOKEN,
  adminRequest,
  authorizationParams,
  authorizeUrl,
  exchangeCode,
  pkce,
  postSignIn,
  REDIRECT,
  registerClient,
  signInForm,
  signInForSso,
} from '../helpers/oauth.ts';

const BYE = 'https://rp.example/bye';

describe('logout needs proof or confirmation (OIDC RP-Initiated Logout 1.0 §2-§3)', () => {
  let t: TestApp;
  let pub: { client_id: string };
  before(async () => {
    t = await createTestApp({
      env: { ADMIN_TOKEN, RATE_LIMITS: 'signin_phone=1000/900,signin_address=1000/900' },
    });
    pub = await registerClient(t, { token_endpoint_auth_method: 'none', post_logout_redirect_uris: [BYE] });
  });
  after(() => t.close());

  /** A user signed in on the page (its cookies), and an ID token the client got for them. */
  const signedIn = async (u?: SignedUp) => {
    const user = u ?? (await signUp(t));
    const { cookie } = await signInForSso(t, authorizationParams(pub.client_id, pkce().challenge), user);
    const { verifier, challenge } = pkce();
    const back = await t.request('GET', authorizeUrl(authorizationParams(pub.client_id, challenge)), {
      headers: { cookie },
    });
    const code = new URL(String(back.headers.location)).searchParams.get('code') as string;
    const idToken = (await exchangeCode(t, pub.client_id, code, verifier)).body.id_token as string;
    return { user, cookie, idToken };
  };
  const stillSignedIn = async (cookie: string) =>
    (
      await t.request('GET', authorizeUrl(authorizationParams(pub.client_id, pkce().challenge)), {
        headers: { cookie },
      })
    ).status === 302;
  const logout = (params: Record<string, string>, cookie: string) =>
    t.request('GET', `/authorize/logout?${new URLSearchParams(params)}`, { headers: { cookie } });

  test('without a valid ID token hint, nothing ends: the user is asked, and a forged request redirects nowhere', async () => {
    const { cookie, idToken } = await signedIn();
    const other = await signedIn();
    const forged: Array<Record<string, string>> = [
      {},
      { client_id: pub.client_id, post_logout_redirect_uri: BYE, state: 'x' },
      { id_token_hint: `${idToken.slice(0, -6)}AAAAAA`, post_logout_redirect_uri: BYE },
      { id_token_hint: idToken, client_id: 'someone-else', post_logout_redirect_uri: BYE },
      { id_token_hint: other.idToken, post_logout_redirect_uri: BYE }, // another user's hint
    ];
    for (const params of forged) {
      const res = await logout(params, cookie);
      assert.equal(res.status, 200, JSON.stringify(params).slice(0, 60));
      assert.equal(res.headers.location, undefined);
      assert.match(String(res.body), /Sign out\?/);
      assert.match(String(res.body), /<form method="post" action="\/authorize\/logout\/confirm">/);
      assert.ok(await stillSignedIn(cookie), 'still signed in');
    }
  });

  test('the confirmation posts with its CSRF token, then "You are signed out" and no redirect', async () => {
    const { cookie } = await signedIn();
    const page = await logout({ post_logout_redirect_uri: BYE }, cookie);
    const csrf = /name="csrf" value="([^"]+)"/.exec(String(page.body))?.[1] as string;
    const confirm = (sent: string) =>
      t.request('POST', '/authorize/logout/confirm', {
        body: new URLSearchParams({ csrf: sent }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      });
    const forged = await confirm('not-the-token');
    assert.equal(forged.status, 400);
    assert.ok(await stillSignedIn(cookie));
    const done = await confirm(csrf);
    assert.equal(done.status, 200);
    assert.equal(done.headers.location, undefined);
    assert.match(String(done.body), /You are signed out/);
    assert.match(String(done.headers['set-cookie']), /callsign_sso=; Max-Age=0; Path=\/authorize/);
    assert.ok(!(await stillSignedIn(cookie)), 'the cookie, sent again, signs in no one');
  });

  test('after sign-out, a consent form already on the screen gives no code, and the CSRF token is new', async () => {
    const app = await registerClient(t, { first_party: false, token_endpoint_auth_method: 'none' });
    const user = await signUp(t);
    const { state, csrf } = await signInForm(t, authorizationParams(app.client_id, pkce().challenge));
    const consent = await postSignIn(t, { state, csrf }, user);
    const sso = /callsign_sso=([^;]+)/.exec(String(consent.headers['set-cookie']))?.[1] as string;
    const cookie = `callsign_csrf=${csrf}; callsign_sso=${sso}`;
    const consentState = /name="state" value="([^"]+)"/.exec(String(consent.body))?.[1] as string;
    const allow = () =>
      t.request('POST', '/authorize/consent', {
        body: new URLSearchParams({ state: consentState, csrf, decision: 'allow' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      });
    // "Sign out" on the confirmation page.
    const page = await logout({}, cookie);
    const token = /name="csrf" value="([^"]+)"/.exec(String(page.body))?.[1] as string;
    const done = await t.request('POST', '/authorize/logout/confirm', {
      body: new URLSearchParams({ csrf: token }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    });
    assert.equal(done.status, 200);
    const fresh = /callsign_csrf=([^;]+)/.exec(String(done.headers['set-cookie']))?.[1];
    assert.ok(fresh && fresh !== csrf, 'a new CSRF token');
    // The old form, with the cookies it had (as a replay would send them), twice.
    for (const attempt of [1, 2]) {
      const posted = await allow();
      assert.equal(posted.status, 400, `attempt ${attempt}`);
      assert.equal(posted.headers.location, undefined, 'no code');
    }
  });

  test('client_id with a registered post-logout URI and no hint: asked first, then back there with state', async () => {
    const { cookie } = await signedIn();
    const page = await logout(
      { client_id: pub.client_id, post_logout_redirect_uri: BYE, state: 'rp-7' },
      cookie,
    );
    assert.equal(page.status, 200);
    assert.match(String(page.body), /Sign out\?/);
    assert.ok(await stillSignedIn(cookie), 'nothing ended before the user said so');
    assert.match(String(page.headers['content-security-policy']), /form-action 'self' https:\/\/rp\.example/);
    const fields = Object.fromEntries(
      [...String(page.body).matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [
        m[1],
        m[2],
      ]),
    );
    const confirm = (form: Record<string, string>) =>
      t.request('POST', '/authorize/logout/confirm', {
        body: new URLSearchParams(form).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      });
    // The way back is checked again when posted: an address the client did not register goes nowhere.
    const tampered = await confirm({ ...fields, post_logout_redirect_uri: 'https://evil.example/' });
    assert.equal(tampered.status, 200);
    assert.equal(tampered.headers.location, undefined);
    const again = await signedIn();
    const done = await t.request('POST', '/authorize/logout/confirm', {
      body: new URLSearchParams(fields).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: again.cookie.replace(/callsign_csrf=[^;]+/, `callsign_csrf=${fields.csrf}`),
      },
    });
    assert.equal(done.status, 302);
    assert.equal(done.headers.location, `${BYE}?state=rp-7`);
    assert.ok(!(await stillSignedIn(again.cookie)));
    const unregistered = await logout(
      { client_id: pub.client_id, post_logout_redirect_uri: REDIRECT },
      cookie,
    );
    assert.doesNotMatch(
      String(unregistered.body),
      /name="post_logout_redirect_uri"/,
      'a login URI is no way back',
    );
  });

  test('with a valid hint: the sign-on ends, and the browser goes back only to a registered post-logout URI', async () => {
    const a = await signedIn();
    t.clock.advance(2 * 3600); // an expired ID token still names its client and user
    const res = await logout(
      { id_token_hint: a.idToken, post_logout_redirect_uri: BYE, state: 'bye-1' },
      a.cookie,
    );
    assert.equal(res.status, 302);
    assert.equal(res.headers.location, `${BYE}?state=bye-1`);
    assert.ok(!(await stillSignedIn(a.cookie)));

    const b = await signedIn();
    const login = await logout({ id_token_hint: b.idToken, post_logout_redirect_uri: REDIRECT }, b.cookie);
    assert.equal(login.status, 200, 'a login redirect URI is never a logout destination');
    assert.equal(login.headers.location, undefined);
    assert.match(String(login.body), /You are signed out/);
    assert.ok(!(await stillSignedIn(b.cookie)));
  });

  test("a form post from the client's site goes on as a GET, which brings the sign-on cookie", async () => {
    const { idToken } = await signedIn();
    const res = await t.request('POST', '/authorize/logout', {
      body: new URLSearchParams({
        id_token_hint: idToken,
        post_logout_redirect_uri: BYE,
        state: 's',
        x: 'y',
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
    });
    assert.equal(res.status, 303);
    const next = new URL(String(res.headers.location), 'http://callsign.test');
    assert.equal(next.pathname, '/authorize/logout');
    assert.deepEqual(Object.fromEntries(next.searchParams), {
      id_token_hint: idToken,
      post_logout_redirect_uri: BYE,
      state: 's',
    });
  });

  test('post_logout_redirect_uris: registered, shown, changed and checked like redirect URIs', async () => {
    const created = await adminRequest(t, 'POST', '/clients', {
      client_name: 'Logout RP',
      redirect_uris: [REDIRECT],
      post_logout_redirect_uris: ['https://rp.example/bye', 'http://localhost:8080/bye'],
    });
    assert.equal(created.status, 201);
    assert.deepEqual(created.body.post_logout_redirect_uris, [
      'https://rp.example/bye',
      'http://localhost:8080/bye',
    ]);
    for (const bad of [['http://rp.example/bye'], ['https://rp.example/bye#x'], 'https://rp.example/bye']) {
      const res = await adminRequest(t, 'PATCH', `/clients/${created.body.client_id}`, {
        post_logout_redirect_uris: bad,
      });
      assert.equal(res.status, 400, JSON.stringify(bad));
      assert.match(res.body.error_description, /\(post_logout_redirect_uris/);
    }
    const changed = await adminRequest(t, 'PATCH', `/clients/${created.body.client_id}`, {
      post_logout_redirect_uris: [],
    });
    assert.deepEqual(changed.body.post_logout_redirect_uris, []);
    assert.deepEqual(
      (await adminRequest(t, 'GET', `/clients/${created.body.client_id}`)).body.redirect_uris,
      [REDIRECT],
    );
  });
});
