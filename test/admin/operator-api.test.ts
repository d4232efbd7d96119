import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { SignInProof } from '../../src/domain/accounts/sign-in-proof.ts';
import { type DomainError, invalidCredentials } from '../../src/domain/errors.ts';
import { usersRepo } from '../../src/storage/repositories/users.ts';
import {
  createTestApp,
  events,
  signUp,
  type TestApp,
  uniqueIp,
  unrevokedSessions,
  verifiedTempToken,
} from '../helpers/app.ts';
import { meanwhileUncommitted } from '../helpers/database.ts';
import { ADMIN_TOKEN, adminRequest } from '../helpers/oauth.ts';
import { signInHeldAtPinCheck } from '../helpers/pin-gate.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

/** A new account's PIN, already checked: what the sign-in holds the account for. */
const checkedPin = (userId: string): SignInProof => ({
  method: 'pin',
  check: async () => ({
    spend: async () => ({ account: { userId, pinVersion: 0 }, amr: ['pwd'] }),
    notThere: invalidCredentials,
  }),
});

describe("the operator's admin API: users, locks, sessions, overview, client edits, test events (issue 8)", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
  });
  after(() => t.close());

  test('find an account by id, phone (E.164, spaces allowed) or handle (with or without @)', async () => {
    const s = await signUp(t, { name: 'Grace' });
    const spaced = `${s.phone.slice(0, 2)} ${s.phone.slice(2, 5)} ${s.phone.slice(5, 8)} ${s.phone.slice(8)}`;
    for (const q of [s.user.id, s.phone, spaced, s.handle, `@${s.handle.toUpperCase()}`]) {
      const res = await adminRequest(t, 'GET', `/users?q=${encodeURIComponent(q)}`);
      assert.equal(res.status, 200, q);
      assert.equal(res.body.data.length, 1, q);
      assert.equal(res.body.data[0].id, s.user.id);
      assert.equal(res.body.data[0].pin_locked_until, null);
    }
    assert.deepEqual((await adminRequest(t, 'GET', '/users?q=nobody_here')).body.data, []);
    assert.equal((await adminRequest(t, 'GET', '/users?q=')).status, 200, 'an empty search is no search');
    // Without a search, the newest accounts, newest first.
    t.clock.advance(1);
    const later = await signUp(t);
    const newest = (await adminRequest(t, 'GET', '/users')).body.data.map((u: { id: string }) => u.id);
    assert.deepEqual(newest.slice(0, 2), [later.user.id, s.user.id]);
    const detail = (await adminRequest(t, 'GET', `/users/${s.user.id}`)).body;
    assert.equal(detail.name, 'Grace');
    assert.equal(detail.sessions.length, 1);
    assert.equal(detail.kyc.status, 'none');
    assert.equal((await adminRequest(t, 'GET', '/users/00000000-0000-4000-8000-000000000000')).status, 404);
  });

  test('search by a part of the name or an imported id; filter by KYC status and creation days; page through all', async () => {
    const marker = `Zq${Date.now().toString(36)}`;
    const named = [];
    const days: string[] = [];
    for (let i = 0; i < 5; i++) {
      t.clock.advance(60);
      days.push(t.clock.now().toISOString().slice(0, 10));
      named.push(await signUp(t, { name: `${marker} Person ${i}` }));
    }
    const found = (q: string) =>
      adminRequest(t, 'GET', `/users?q=${encodeURIComponent(q)}`).then((r) =>
        r.body.data.map((u: { id: string }) => u.id),
      );
    assert.equal((await found(marker.toLowerCase())).length, 5, 'a part of the name, any case');
    assert.deepEqual(await found(`${marker} Person 3`), [named[3].user.id]);
    assert.deepEqual(await found('_%_'), [], '% and _ are themselves');
    await t.c.db.query("UPDATE users SET external_id = 'fb-777', kyc_status = 'verified' WHERE id = $1", [
      named[1].user.id,
    ]);
    assert.deepEqual(await found('fb-777'), [named[1].user.id], 'an imported id');
    const verified = (await adminRequest(t, 'GET', `/users?q=${marker}&kyc_status=verified`)).body.data;
    assert.deepEqual(
      verified.map((u: { id: string }) => u.id),
      [named[1].user.id],
    );
    // The five may straddle midnight: the days are those the clock showed at each sign-up.
    const [firstDay, lastDay] = [days[0], days[4]];
    const tomorrow = new Date(t.clock.now().getTime() + 86_400_000).toISOString().slice(0, 10);
    assert.equal(
      (await adminRequest(t, 'GET', `/users?q=${marker}&created_from=${firstDay}&created_to=${lastDay}`)).body
        .data.length,
      5,
    );
    assert.equal(
      (await adminRequest(t, 'GET', `/users?q=${marker}&created_from=${tomorrow}`)).body.data.length,
      0,
    );
    // Two a page, newest first, every one once.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { data: { id: string }[]; next_cursor: string | null } } = await adminRequest(
        t,
        'GET',
        `/users?q=${marker}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...page.body.data.map((u) => u.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    assert.deepEqual(seen, named.map((u) => u.user.id).reverse());
    for (const bad of ['kyc_status=unknown', 'created_from=yesterday', 'cursor=nope', 'limit=0'])
      assert.equal((await adminRequest(t, 'GET', `/users?${bad}`)).body.error, 'invalid_request', bad);
  });

  test('race: a lock that comes while a sign-in checks the PIN leaves that sign-in without a session', async () => {
    const s = await signUp(t);
    const signingIn = await signInHeldAtPinCheck(t, s); // the attempt is counted, the PIN not yet checked
    assert.equal((await adminRequest(t, 'POST', `/users/${s.user.id}/lock`)).status, 200);
    signingIn.release();
    const res = await signingIn.answer;
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'ACCOUNT_LOCKED');
    assert.equal(res.body.error.details.locked_until, null, "the operator's lock");
    assert.equal(await unrevokedSessions(t, s.user.id), 0);
  });

  test("race: a sign-in's session that opens while the lock is being written is not opened", async () => {
    const s = await signUp(t);
    // The sign-in holds the account: on PostgreSQL it waits for the uncommitted lock, then sees it, so no
    // session outlives the lock's revocation of the others.
    const signingIn = await meanwhileUncommitted(
      t.c.db,
      async (tx) => {
        await usersRepo.setAdminLock(tx, s.user.id, t.clock.now());
        await t.c.sessions.revokeAllOfUser(tx, s.user.id, 'admin');
      },
      () =>
        t.c.signIn.rest(checkedPin(s.user.id), undefined, '127.0.0.1').then(
          () => 'opened',
          (err: DomainError) => err.code,
        ),
      '%FROM users%FOR SHARE%',
    );
    assert.equal(signingIn, 'ACCOUNT_LOCKED', 'the row as the lock left it');
    assert.equal(await unrevokedSessions(t, s.user.id), 0);
  });

  test('race: a PIN reset while the lock is being written neither lifts it nor opens a session', async () => {
    const s = await signUp(t);
    const temp_token = await verifiedTempToken(t, s.phone, 'pin_reset');
    const res = await meanwhileUncommitted(
      t.c.db,
      async (tx) => {
        await usersRepo.setAdminLock(tx, s.user.id, t.clock.now());
        await t.c.sessions.revokeAllOfUser(tx, s.user.id, 'admin');
      },
      () => t.request('POST', '/auth/pin/reset', { body: { temp_token, pin: '204913' } }),
      '%UPDATE users SET pin_hash%',
    );
    assert.equal(res.body.error?.code, 'ACCOUNT_LOCKED');
    assert.equal(await unrevokedSessions(t, s.user.id), 0);
    const signin = await t.request('POST', '/auth/signin', {
      body: { phone: s.phone, pin: s.pin },
      ip: uniqueIp(),
    });
    assert.equal(signin.body.error.code, 'ACCOUNT_LOCKED', 'still locked');
  });

  test('revoking one session: its tokens stop at once, session.revoked says admin', async () => {
    const s = await signUp(t);
    const [session] = (await adminRequest(t, 'GET', `/users/${s.user.id}`)).body.sessions;
    assert.equal((await adminRequest(t, 'DELETE', `/users/${s.user.id}/sessions/${session.id}`)).status, 204);
    assert.equal((await t.request('GET', '/users/me', { token: s.access_token })).status, 401);
    const revoked = (await events(t, 'session.revoked')).find((e) => e.data.session_id === session.id);
    assert.equal(revoked?.data.reason, 'admin');
    assert.equal((await adminRequest(t, 'DELETE', `/users/${s.user.id}/sessions/${session.id}`)).status, 404);
  });

  test('lock ends every session and refuses sign-in and PIN reset until unlock; unlock also lifts the PIN lock', async () => {
    const s = await signUp(t);
    const locked = await adminRequest(t, 'POST', `/users/${s.user.id}/lock`);
    assert.equal(locked.status, 200);
    assert.ok(locked.body.admin_locked_at);
    assert.equal((await t.request('GET', '/users/me', { token: s.access_token })).status, 401);
    const signin = await t.request('POST', '/auth/signin', {
      body: { phone: s.phone, pin: s.pin },
      ip: uniqueIp(),
    });
    assert.equal(signin.body.error.code, 'ACCOUNT_LOCKED');
    const temp = await verifiedTempToken(t, s.phone, 'pin_reset');
    const reset = await t.request('POST', '/auth/pin/reset', { body: { temp_token: temp, pin: '204913' } });
    assert.equal(reset.body.error.code, 'ACCOUNT_LOCKED', 'a PIN reset does not lift it');

    assert.equal((await adminRequest(t, 'POST', `/users/${s.user.id}/unlock`)).body.admin_locked_at, null);
    const back = await t.request('POST', '/auth/signin', {
      body: { phone: s.phone, pin: s.pin },
      ip: uniqueIp(),
    });
    assert.equal(back.status, 200);
  });

  test('the overview counts per hour over 24 hours', async () => {
    const fresh = await createTestApp({ env: { ADMIN_TOKEN } });
    try {
      await signUp(fresh);
      fresh.clock.advance(2 * 3600);
      await signUp(fresh);
      const o = (await fresh.request('GET', '/admin/v1/overview', { token: ADMIN_TOKEN })).body;
      assert.equal(o.hours, 24);
      assert.equal(o.series.signups.length, 24);
      assert.equal(o.series.signups[23], 1, 'this hour');
      assert.equal(o.series.signups[21], 1, 'two hours ago');
      assert.equal(
        o.series.signups.reduce((a: number, b: number) => a + b),
        2,
      );
      assert.equal(
        o.series.signins.reduce((a: number, b: number) => a + b),
        2,
        'sign-up opens a session',
      );
      assert.equal(
        o.series.otp_sends.reduce((a: number, b: number) => a + b),
        2,
      );
      assert.equal(o.active_sessions, 2);
      fresh.clock.advance(23 * 3600);
      const later = (await fresh.request('GET', '/admin/v1/overview', { token: ADMIN_TOKEN })).body;
      assert.equal(
        later.series.signups.reduce((a: number, b: number) => a + b),
        1,
        'the first fell out of the window',
      );
      fresh.clock.advance(30 * 86400);
      const idle = (await fresh.request('GET', '/admin/v1/overview', { token: ADMIN_TOKEN })).body;
      assert.equal(idle.active_sessions, 0, 'P59: 30 days without a refresh ends a session');
    } finally {
      await fresh.close();
    }
  });

  test('PATCH /clients/:id edits redirect URIs, scope and first_party; a confidential client stays confidential', async () => {
    const c = (
      await adminRequest(t, 'POST', '/clients', {
        client_name: 'Edit me',
        redirect_uris: ['https://a.example/cb'],
        scope: 'openid profile',
      })
    ).body;
    const edited = await adminRequest(t, 'PATCH', `/clients/${c.client_id}`, {
      redirect_uris: ['https://a.example/cb', 'https://b.example/cb'],
      scope: 'openid profile kyc',
      first_party: true,
    });
    assert.equal(edited.status, 200);
    assert.deepEqual(edited.body.redirect_uris, ['https://a.example/cb', 'https://b.example/cb']);
    assert.equal(edited.body.scope, 'openid profile kyc');
    assert.equal(edited.body.first_party, true);
    assert.equal(edited.body.token_endpoint_auth_method, 'client_secret_basic');
    assert.equal(edited.body.client_name, 'Edit me');
    const toPublic = await adminRequest(t, 'PATCH', `/clients/${c.client_id}`, {
      token_endpoint_auth_method: 'none',
    });
    assert.equal(toPublic.status, 400);
    const post = await adminRequest(t, 'PATCH', `/clients/${c.client_id}`, {
      token_endpoint_auth_method: 'client_secret_post',
    });
    assert.equal(post.body.token_endpoint_auth_method, 'client_secret_post', 'between secret methods');
    const bad = await adminRequest(t, 'PATCH', `/clients/${c.client_id}`, {
      redirect_uris: ['http://evil.example/cb'],
    });
    assert.equal(bad.status, 400);
    assert.equal((await adminRequest(t, 'PATCH', '/clients/nope', { scope: 'openid' })).status, 404);
  });

  test('a test event goes to one endpoint only, signed and logged like any delivery', async () => {
    const receiver = new WebhookReceiver();
    const url = await receiver.start();
    try {
      const one = (await adminRequest(t, 'POST', '/webhook-endpoints', { url })).body;
      const other = (await adminRequest(t, 'POST', '/webhook-endpoints', { url: `${url}/other` })).body;
      const sent = await adminRequest(t, 'POST', `/webhook-endpoints/${one.id}/test`);
      assert.equal(sent.status, 202);
      assert.equal(sent.body.event_type, 'webhook.test');
      await t.c.deliveries.deliverDue();
      assert.equal(receiver.received.length, 1);
      assert.equal(receiver.received[0].headers['x-service-event'], 'webhook.test');
      assert.deepEqual(JSON.parse(receiver.received[0].body).data.endpoint_id, one.id);
      assert.deepEqual(
        (await adminRequest(t, 'GET', `/webhook-endpoints/${other.id}/deliveries`)).body.data,
        [],
      );
      await adminRequest(t, 'PATCH', `/webhook-endpoints/${one.id}`, { enabled: false });
      assert.equal((await adminRequest(t, 'POST', `/webhook-endpoints/${one.id}/test`)).status, 400);
      for (const e of [one, other]) await adminRequest(t, 'DELETE', `/webhook-endpoints/${e.id}`);
    } finally {
      await receiver.close();
    }
  });
});
