import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { consentsRepo } from '../../src/storage/repositories/consents.ts';
import {
  createTestApp,
  events,
  type SignedUp,
  signUp,
  type TestApp,
  unrevokedSessions,
} from '../helpers/app.ts';
import { meanwhileUncommitted } from '../helpers/database.ts';
import {
  ADMIN_TOKEN,
  authorizationParams,
  authorizeUrl,
  decideConsent,
  exchangeCode,
  pkce,
  refreshGrant,
  registerClient,
  signInForSso,
} from '../helpers/oauth.ts';

describe('the apps a user allowed (GET/DELETE /users/me/apps)', () => {
  let t: TestApp;
  const thirdParty = {
    token_endpoint_auth_method: 'none',
    first_party: false,
    scope: 'openid profile phone',
  };
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN } });
  });
  after(() => t.close());

  const apps = async (u: SignedUp) => {
    const res = await t.request('GET', '/users/me/apps', { token: u.access_token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data.apps as Record<string, unknown>[];
  };
  const withdraw = (u: SignedUp, clientId: string) =>
    t.request('DELETE', `/users/me/apps/${encodeURIComponent(clientId)}`, { token: u.access_token });

  /** An authorization of this client, signed in on the hosted page (SSO `cookie`, or the PIN), consent given when asked. */
  const authorize = async (clientId: string, u: SignedUp, scope: string, cookie?: string) => {
    const { verifier, challenge } = pkce();
    const params = authorizationParams(clientId, challenge, { scope });
    let signedIn = cookie;
    if (!signedIn) signedIn = (await signInForSso(t, params, u)).cookie;
    const page = await t.request('GET', authorizeUrl(params), { headers: { cookie: signedIn } });
    const back =
      page.status === 302
        ? new URL(String(page.headers.location))
        : await decideConsent(t, String(page.body), signedIn, 'allow');
    return { code: back.searchParams.get('code') as string, verifier, cookie: signedIn };
  };
  const exchange = (clientId: string, code: string, verifier: string) =>
    exchangeCode(t, clientId, code, verifier);

  test('lists each app allowed, with its scopes, when, and its live sessions; not first-party apps, not another user’s', async () => {
    const shop = await registerClient(t, { ...thirdParty, client_name: 'Shop' });
    const own = await registerClient(t, { token_endpoint_auth_method: 'none' });
    const u = await signUp(t);
    const other = await signUp(t);
    assert.deepEqual(await apps(u), []);

    const granted = t.clock.now().toISOString();
    const a = await authorize(shop.client_id, u, 'openid profile');
    t.clock.advance(30); // within the code's 60 s (D24)
    const used = t.clock.now().toISOString();
    assert.equal((await exchange(shop.client_id, a.code, a.verifier)).status, 200);
    const mine = await authorize(own.client_id, u, 'openid phone', a.cookie);
    assert.equal((await exchange(own.client_id, mine.code, mine.verifier)).status, 200);

    assert.deepEqual(await apps(u), [
      {
        client_id: shop.client_id,
        client_name: 'Shop',
        scopes: ['openid', 'profile'],
        granted_at: granted,
        active_sessions: 1,
        last_used_at: used,
      },
    ]);
    assert.deepEqual(await apps(other), []);
    // The operator sees the same on the account (the admin API and the console's account page).
    const detail = await t.request('GET', `/admin/v1/users/${u.user.id}`, { token: ADMIN_TOKEN });
    assert.deepEqual(detail.body.apps, await apps(u));

    // Deleted by the operator: its sessions ended, it is no longer an app anyone uses.
    assert.equal(
      (await t.request('DELETE', `/admin/v1/clients/${shop.client_id}`, { token: ADMIN_TOKEN })).status,
      204,
    );
    assert.deepEqual(await apps(u), []);
    // P108: and what linked people to it goes with it.
    const kept = await t.c.db.query('SELECT 1 FROM consents WHERE client_id = $1', [shop.client_id]);
    assert.equal(kept.length, 0);
  });

  test('withdrawing ends the app’s sessions and pending codes; the next authorization asks again; other sessions stay', async () => {
    const shop = await registerClient(t, thirdParty);
    const elsewhere = await registerClient(t, thirdParty);
    const u = await signUp(t);
    const a = await authorize(shop.client_id, u, 'openid profile');
    const tokens = (await exchange(shop.client_id, a.code, a.verifier)).body;
    const b = await authorize(elsewhere.client_id, u, 'openid', a.cookie);
    const elsewhereTokens = (await exchange(elsewhere.client_id, b.code, b.verifier)).body;
    const pending = await authorize(shop.client_id, u, 'openid', a.cookie);
    assert.ok(pending.code, 'remembered consent: no page');
    const revokedBefore = (await events(t, 'session.revoked')).length;

    const res = await withdraw(u, shop.client_id);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.data, { revoked: true, sessions_revoked: 1 });

    // D34: the session ends as one the user revoked, and says so to webhooks.
    const revoked = (await events(t, 'session.revoked')).slice(revokedBefore);
    assert.deepEqual(
      revoked.map((e) => e.data),
      [{ user_id: u.user.id, session_id: revoked[0].data.session_id, reason: 'user_revoked' }],
    );
    // D17: its tokens stop at once; the code issued before the withdrawal is refused.
    assert.equal((await t.request('GET', '/oauth/userinfo', { token: tokens.access_token })).status, 401);
    const refreshed = await refreshGrant(t, shop.client_id, tokens.refresh_token);
    assert.equal(refreshed.body.error, 'invalid_grant');
    assert.equal(
      (await exchange(shop.client_id, pending.code, pending.verifier)).body.error,
      'invalid_grant',
    );

    // Asked again, on the page and by prompt=none.
    const silent = await t.request(
      'GET',
      authorizeUrl(
        authorizationParams(shop.client_id, pkce().challenge, { scope: 'openid', prompt: 'none' }),
      ),
      { headers: { cookie: a.cookie } },
    );
    assert.equal(new URL(String(silent.headers.location)).searchParams.get('error'), 'consent_required');
    const page = await t.request(
      'GET',
      authorizeUrl(authorizationParams(shop.client_id, pkce().challenge, { scope: 'openid' })),
      { headers: { cookie: a.cookie } },
    );
    assert.match(String(page.body), /Allow access\?/);

    // The other app and the REST session are untouched.
    assert.equal(
      (await t.request('GET', '/oauth/userinfo', { token: elsewhereTokens.access_token })).status,
      200,
    );
    assert.deepEqual(
      (await apps(u)).map((x) => x.client_id),
      [elsewhere.client_id],
    );
    assert.equal(
      (await withdraw(u, shop.client_id)).body.error.code,
      'NOT_FOUND',
      'nothing left to withdraw',
    );
  });

  test('an app never allowed, a first-party app, an unknown id: NOT_FOUND; without a token: 401', async () => {
    const shop = await registerClient(t, thirdParty);
    const own = await registerClient(t, { token_endpoint_auth_method: 'none' });
    const u = await signUp(t);
    const stranger = await signUp(t);
    const a = await authorize(shop.client_id, u, 'openid');
    assert.equal((await exchange(shop.client_id, a.code, a.verifier)).status, 200);
    // P70: prompt=consent asks a first-party client too; that answer is kept, but it is not an app to withdraw.
    const { verifier, challenge } = pkce();
    const asked = await t.request(
      'GET',
      authorizeUrl(authorizationParams(own.client_id, challenge, { scope: 'openid', prompt: 'consent' })),
      { headers: { cookie: a.cookie } },
    );
    const mine = await decideConsent(t, String(asked.body), a.cookie, 'allow');
    assert.equal(
      (await exchange(own.client_id, mine.searchParams.get('code') as string, verifier)).status,
      200,
    );

    for (const [who, clientId] of [
      [stranger, shop.client_id],
      [u, own.client_id],
      [u, 'no-such-client'],
      [u, 'x'.repeat(300)],
    ] as const) {
      const res = await withdraw(who, clientId);
      assert.equal(res.status, 404, clientId.slice(0, 20));
      assert.equal(res.body.error.code, 'NOT_FOUND');
    }
    assert.equal((await apps(u)).length, 1, 'the stranger withdrew nothing of this user’s');
    assert.equal((await t.request('GET', '/users/me/apps')).status, 401);
    assert.equal((await t.request('DELETE', `/users/me/apps/${shop.client_id}`)).status, 401);
  });

  test('a code exchanged while the withdrawal is being written opens no session that outlives it', async () => {
    const shop = await registerClient(t, thirdParty);
    const u = await signUp(t);
    const a = await authorize(shop.client_id, u, 'openid');
    // The withdrawal not yet committed while the exchange runs: on PostgreSQL the exchange must wait for it
    // (it reads the consent FOR SHARE), or it would open a session after the withdrawal had ended the others.
    const res = await meanwhileUncommitted(
      t.c.db,
      async (tx) => {
        assert.ok(await consentsRepo.removeOfThirdParty(tx, u.user.id, shop.client_id));
        await t.c.sessions.revokeAllOfUserClient(tx, u.user.id, shop.client_id);
      },
      () => exchange(shop.client_id, a.code, a.verifier),
      '%FROM consents%FOR SHARE%',
    );
    assert.equal(res.body.error, 'invalid_grant');
    assert.equal(res.body.error_description, 'the user no longer allows this client this scope');
    assert.equal(await unrevokedSessions(t, u.user.id), 1, 'the REST session of the sign-up only');
  });

  test('ten withdrawals at once: one withdraws, the others find nothing; each session ends once', async () => {
    const shop = await registerClient(t, thirdParty);
    const u = await signUp(t);
    const a = await authorize(shop.client_id, u, 'openid');
    assert.equal((await exchange(shop.client_id, a.code, a.verifier)).status, 200);
    const revokedBefore = (await events(t, 'session.revoked')).length;
    const answers = await Promise.all(Array.from({ length: 10 }, () => withdraw(u, shop.client_id)));
    assert.deepEqual(answers.map((r) => r.status).sort(), [200, ...Array(9).fill(404)]);
    assert.equal((await events(t, 'session.revoked')).length - revokedBefore, 1);
  });

  test('withdrawals racing exchanges never leave the app a live session', async () => {
    const shop = await registerClient(t, thirdParty);
    for (let round = 0; round < 6; round++) {
      const u = await signUp(t);
      const a = await authorize(shop.client_id, u, 'openid');
      const [exchanged, withdrawn] = await Promise.all([
        exchange(shop.client_id, a.code, a.verifier),
        withdraw(u, shop.client_id),
      ]);
      assert.equal(withdrawn.status, 200, JSON.stringify(withdrawn.body));
      if (exchanged.status !== 200) assert.equal(exchanged.body.error, 'invalid_grant', `round ${round}`);
      assert.equal(await unrevokedSessions(t, shop.client_id, 'client_id'), 0, `round ${round}`);
    }
  });
});
