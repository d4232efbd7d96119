import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { DEFAULT_RETENTION } from '../../src/config/retention-settings.ts';
import {
  BACKCHANNEL_LOGOUT_EVENT,
  LOGOUT_TOKEN_TTL_SECONDS,
} from '../../src/domain/sessions/access-tokens.ts';
import { RETRY_DELAYS_SECONDS } from '../../src/domain/webhooks/webhook-rules.ts';
import { addSeconds } from '../../src/providers/clock.ts';
import { WebhookSender } from '../../src/providers/webhook-sender.ts';
import { BackchannelLogoutWorker } from '../../src/workers/backchannel-logout.ts';
import { housekeeping } from '../../src/workers/housekeeping.ts';

const EVENT_RETENTION_SECONDS = DEFAULT_RETENTION.eventsDays * 86400;

import {
  createTestApp,
  events,
  type SignedUp,
  signUp,
  type TestApp,
  verifiedTempToken,
} from '../helpers/app.ts';
import { sample } from '../helpers/metrics.ts';
import {
  ADMIN_TOKEN,
  adminRequest,
  authorizationParams,
  authorizeWithPin,
  exchangeCode,
  pkce,
  registerClient,
} from '../helpers/oauth.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

const BASE = 'http://callsign.test';

describe('OIDC Back-Channel Logout 1.0', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let logoutUri: string;
  let jwks: ReturnType<typeof createLocalJWKSet>;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
    receiver = new WebhookReceiver();
    logoutUri = await receiver.start('/backchannel-logout');
    jwks = createLocalJWKSet((await t.request('GET', '/.well-known/jwks.json')).body);
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });

  const publicClient = (extra: Record<string, unknown> = {}) =>
    registerClient(t, { token_endpoint_auth_method: 'none', backchannel_logout_uri: logoutUri, ...extra });

  /** A session of `u` with the client, through the hosted page and the token endpoint. */
  async function sessionWith(clientId: string, u: SignedUp) {
    const { verifier, challenge } = pkce();
    const back = await authorizeWithPin(t, authorizationParams(clientId, challenge), u);
    const res = await exchangeCode(t, clientId, back.searchParams.get('code') as string, verifier);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as { access_token: string; refresh_token: string; id_token: string };
  }

  const logoutTokens = (from = 0) =>
    receiver.received.slice(from).map((r) => new URLSearchParams(r.body).get('logout_token') as string);
  const rowsOf = (sessionId: string) =>
    t.c.db.query<{
      status: string;
      attempts: number;
      next_attempt_at: Date | null;
      last_error: string | null;
    }>(
      'SELECT status, attempts, next_attempt_at, last_error FROM backchannel_logouts WHERE session_id = $1',
      [sessionId],
    );

  test('discovery announces back-channel logout with the sid (§2.1)', async () => {
    const res = await t.request('GET', '/.well-known/openid-configuration');
    assert.equal(res.body.backchannel_logout_supported, true);
    assert.equal(res.body.backchannel_logout_session_supported, true);
    assert.ok(res.body.claims_supported.includes('sid'));
  });

  test('a revoked session reaches its client as a signed logout token (§2.4, §2.5)', async () => {
    const client = await publicClient();
    const u = await signUp(t);
    const tokens = await sessionWith(client.client_id, u);
    const sid = decodeJwt(tokens.access_token).sid as string;
    assert.equal(decodeJwt(tokens.id_token).sid, sid, 'the ID token names the session (§2.1)');

    const from = receiver.received.length;
    const revoked = await t.request('POST', '/oauth/revoke', {
      body: new URLSearchParams({ token: tokens.refresh_token, client_id: client.client_id }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(revoked.status, 200);
    assert.deepEqual(
      (await rowsOf(sid)).map((r) => r.status),
      ['pending'],
      'written with the revocation',
    );
    assert.equal(await t.c.backchannelLogouts.deliverDue(), 1);
    const got = receiver.received[from];
    assert.equal(got.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.equal(got.headers['user-agent'], 'Callsign-Backchannel-Logout');
    const [token] = logoutTokens(from);
    assert.equal(decodeProtectedHeader(token).typ, 'logout+jwt');
    const { payload } = await jwtVerify(token, jwks, {
      issuer: BASE,
      audience: client.client_id,
      typ: 'logout+jwt',
      algorithms: ['RS256'],
      currentDate: t.clock.now(),
    });
    assert.equal(payload.sub, u.user.id);
    assert.equal(payload.sid, sid);
    assert.deepEqual(payload.events, { [BACKCHANNEL_LOGOUT_EVENT]: {} });
    assert.equal(typeof payload.jti, 'string');
    assert.equal(payload.exp, (payload.iat as number) + LOGOUT_TOKEN_TTL_SECONDS);
    assert.equal(payload.nonce, undefined, '§2.4: a logout token has no nonce');
    assert.equal((await rowsOf(sid))[0].status, 'delivered');
    assert.equal(await t.c.backchannelLogouts.deliverDue(), 0, 'sent once');

    // §4.1: the logout token can't pass as an access token.
    const userinfo = await t.request('GET', '/oauth/userinfo', { token });
    assert.equal(userinfo.status, 401);
  });

  test('a client without a logout URI gets no sid in its ID tokens and no logouts', async () => {
    const client = await registerClient(t, { token_endpoint_auth_method: 'none' });
    const u = await signUp(t);
    const tokens = await sessionWith(client.client_id, u);
    assert.equal(decodeJwt(tokens.id_token).sid, undefined, 'the ID token is as the spec lists it');
    const sid = decodeJwt(tokens.access_token).sid as string;
    await t.c.db.transaction((tx) => t.c.sessions.revoke(tx, sid, 'admin'));
    assert.deepEqual(await rowsOf(sid), []);
  });

  test('a failed attempt is tried again on the webhooks schedule, with a fresh token', async () => {
    const client = await publicClient();
    const u = await signUp(t);
    const sid = decodeJwt((await sessionWith(client.client_id, u)).access_token).sid as string;
    const from = receiver.received.length;
    receiver.respond = () => 500;
    try {
      // the operator's revocation (D34 admin)
      assert.equal((await adminRequest(t, 'DELETE', `/users/${u.user.id}/sessions/${sid}`)).status, 204);
      assert.equal(await t.c.backchannelLogouts.deliverDue(), 1);
      const [failed] = await rowsOf(sid);
      assert.equal(failed.status, 'pending');
      assert.equal(failed.attempts, 1);
      assert.equal(failed.last_error, 'receiver answered 500');
      assert.equal(
        failed.next_attempt_at?.getTime(),
        addSeconds(t.clock.now(), RETRY_DELAYS_SECONDS[0]).getTime(),
      );
      t.clock.advance(RETRY_DELAYS_SECONDS[0] - 1);
      assert.equal(await t.c.backchannelLogouts.deliverDue(), 0, 'not before its time');
    } finally {
      receiver.respond = () => 204;
    }
    t.clock.advance(1);
    assert.equal(await t.c.backchannelLogouts.deliverDue(), 1);
    assert.equal((await rowsOf(sid))[0].status, 'delivered');
    const metrics = await t.c.metrics.registry.metrics();
    for (const outcome of ['retrying', 'delivered'])
      assert.ok(
        (sample(metrics, 'callsign_backchannel_logout_attempts_total', { outcome }) ?? 0) >= 1,
        outcome,
      );
    const [first, second] = logoutTokens(from).map((token) => decodeJwt(token));
    assert.notEqual(first.jti, second.jti);
    assert.equal(
      (second.iat as number) - (first.iat as number),
      RETRY_DELAYS_SECONDS[0],
      'made at each attempt',
    );
  });

  test('every session a PIN reset ends is logged out, each by its own sid', async () => {
    const client = await publicClient();
    const u = await signUp(t);
    const sids: string[] = [];
    for (let i = 0; i < 2; i++)
      sids.push(decodeJwt((await sessionWith(client.client_id, u)).access_token).sid as string);
    const from = receiver.received.length;
    const temp_token = await verifiedTempToken(t, u.phone, 'pin_reset');
    assert.equal(
      (await t.request('POST', '/auth/pin/reset', { body: { temp_token, pin: '730194' } })).status,
      200,
    );
    assert.equal(await t.c.backchannelLogouts.deliverDue(), 2);
    assert.deepEqual(
      logoutTokens(from)
        .map((token) => decodeJwt(token).sid)
        .sort(),
      sids.sort(),
    );
    const revokedEvents = (await events(t, 'session.revoked')).filter((e) =>
      sids.includes(e.data.session_id as string),
    );
    assert.equal(revokedEvents.length, 2, 'the webhooks hear of them as before');
  });

  test('a deleted client, or one whose URI was removed, is not called', async () => {
    const gone = await publicClient();
    const u = await signUp(t);
    const goneSid = decodeJwt((await sessionWith(gone.client_id, u)).access_token).sid as string;
    assert.equal((await adminRequest(t, 'DELETE', `/clients/${gone.client_id}`)).status, 204);
    assert.deepEqual(await rowsOf(goneSid), [], 'its sessions end with it, unannounced');

    const quiet = await publicClient();
    const quietSid = decodeJwt((await sessionWith(quiet.client_id, u)).access_token).sid as string;
    await t.c.db.transaction((tx) => t.c.sessions.revoke(tx, quietSid, 'admin'));
    const patched = await adminRequest(t, 'PATCH', `/clients/${quiet.client_id}`, {
      backchannel_logout_uri: null,
    });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.backchannel_logout_uri, null);
    assert.equal(await t.c.backchannelLogouts.deliverDue(), 0);
    assert.equal((await rowsOf(quietSid))[0].status, 'pending');
  });

  test('two workers at once send each logout once (claims, as for webhooks)', async () => {
    const client = await publicClient();
    const u = await signUp(t);
    const sids: string[] = [];
    for (let i = 0; i < 4; i++)
      sids.push(decodeJwt((await sessionWith(client.client_id, u)).access_token).sid as string);
    const from = receiver.received.length;
    await t.c.db.transaction((tx) => t.c.sessions.revokeAllOfUser(tx, u.user.id, 'admin'));
    const other = new BackchannelLogoutWorker({
      db: t.c.db,
      clock: t.c.clock,
      logger: t.c.logger,
      sender: new WebhookSender({ allowPrivateNetworks: true }),
      tokens: t.c.tokens,
      concurrency: 1,
    });
    const sent = await Promise.all([t.c.backchannelLogouts.deliverDue(), other.deliverDue()]);
    assert.equal(sent[0] + sent[1], 4);
    assert.deepEqual(
      logoutTokens(from)
        .map((token) => decodeJwt(token).sid)
        .sort(),
      sids.sort(),
    );
  });

  test('the worker started by the runner sends a logout within its poll', { timeout: 30_000 }, async () => {
    const client = await publicClient();
    const u = await signUp(t);
    const sid = decodeJwt((await sessionWith(client.client_id, u)).access_token).sid as string;
    const from = receiver.received.length;
    const worker = new BackchannelLogoutWorker({
      db: t.c.db,
      clock: t.c.clock,
      logger: t.c.logger,
      sender: new WebhookSender({ allowPrivateNetworks: true }),
      tokens: t.c.tokens,
      pollMs: 20,
    });
    worker.start();
    try {
      await t.c.db.transaction((tx) => t.c.sessions.revoke(tx, sid, 'admin'));
      const arrived = await receiver.arrivesWithin(from + 1, 10_000);
      assert.ok(arrived, 'the logout reached the client');
    } finally {
      await worker.stop();
    }
    assert.equal(decodeJwt(logoutTokens(from)[0]).sid, sid);
  });

  /** A worker of its own with `slots` attempts at once and a poll of an hour: only a freed slot or its start claims. */
  const sleepyWorker = (slots: number, timeoutMs = 10_000) =>
    new BackchannelLogoutWorker({
      db: t.c.db,
      clock: t.c.clock,
      logger: t.c.logger,
      sender: new WebhookSender({ allowPrivateNetworks: true, timeoutMs }),
      tokens: t.c.tokens,
      concurrency: slots,
      pollMs: 3_600_000,
    });

  /** Ends `count` new sessions of the client, each of a user of its own (D28 bounds a phone's sign-ins). */
  async function endSessions(clientId: string, count: number) {
    const sids: string[] = [];
    for (let i = 0; i < count; i++) {
      const u = await signUp(t);
      sids.push(decodeJwt((await sessionWith(clientId, u)).access_token).sid as string);
      await t.c.db.transaction((tx) => t.c.sessions.revokeAllOfUser(tx, u.user.id, 'admin'));
    }
    return sids;
  }

  test('a running worker claims again as its slots free, not at its next poll', async () => {
    const client = await publicClient();
    const from = receiver.received.length;
    const sids = await endSessions(client.client_id, 6);
    const worker = sleepyWorker(4); // one slot per client
    worker.start();
    try {
      const arrived = await receiver.arrivesWithin(from + 6, 10_000);
      assert.ok(arrived, 'all six logouts went out, one after another, within the hour-long poll');
    } finally {
      await worker.stop();
    }
    assert.deepEqual(
      logoutTokens(from)
        .map((token) => decodeJwt(token).sid)
        .sort(),
      sids.sort(),
    );
  });

  test('a client whose logout URI never answers holds a quarter of the slots; another client is served', async () => {
    const hang = new WebhookReceiver();
    hang.respond = () => undefined;
    const stuck = await publicClient({ backchannel_logout_uri: await hang.start('/logout') });
    const healthy = await publicClient();
    await endSessions(stuck.client_id, 6);
    t.clock.advance(1); // the stuck client's logouts are due first
    const from = receiver.received.length;
    const [sid] = await endSessions(healthy.client_id, 1);
    const worker = sleepyWorker(8, 60_000); // two slots per client; the hanging attempts outlast the test
    worker.start();
    try {
      const served = await receiver.arrivesWithin(from + 1, 5_000);
      assert.ok(served, "the healthy client's logout went out while the stuck one's hang");
      assert.equal(decodeJwt(logoutTokens(from)[0]).sid, sid);
      await hang.waitFor(2);
      const [claimed] = await t.c.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM backchannel_logouts WHERE client_id = $1 AND locked_until IS NOT NULL',
        [stuck.client_id],
      );
      assert.equal(claimed.n, 2, 'the stuck client holds its two slots, no more');
    } finally {
      const stopping = worker.stop();
      await hang.close(); // its attempts fail at once, and the worker stops
      await stopping;
      // Its logouts wait for their retry; they must not be sent by the tests after this one.
      await adminRequest(t, 'DELETE', `/clients/${stuck.client_id}`);
    }
  });

  test("operators list a client's logouts and send a failed one again (admin API)", async () => {
    const client = await publicClient();
    const u = await signUp(t);
    const [missed, seen] = [
      decodeJwt((await sessionWith(client.client_id, u)).access_token).sid as string,
      decodeJwt((await sessionWith(client.client_id, u)).access_token).sid as string,
    ];
    receiver.respond = () => 503;
    try {
      await t.c.db.transaction((tx) => t.c.sessions.revoke(tx, missed, 'admin'));
      for (const delay of [...RETRY_DELAYS_SECONDS, 0]) {
        assert.equal(await t.c.backchannelLogouts.deliverDue(), 1);
        t.clock.advance(delay);
      }
      assert.equal((await rowsOf(missed))[0].status, 'failed', 'the client was down past the last retry');
    } finally {
      receiver.respond = () => 204;
    }
    t.clock.advance(1);
    await t.c.db.transaction((tx) => t.c.sessions.revoke(tx, seen, 'admin'));
    assert.equal(await t.c.backchannelLogouts.deliverDue(), 1);

    const log = (q = '') => adminRequest(t, 'GET', `/clients/${client.client_id}/backchannel-logouts${q}`);
    const all = (await log()).body.data;
    assert.deepEqual(
      all.map((b: { session_id: string }) => b.session_id),
      [seen, missed],
      'newest first',
    );
    const [delivered, failed] = all;
    assert.equal(delivered.status, 'delivered');
    assert.equal(delivered.last_status_code, 204);
    assert.ok(delivered.delivered_at);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.attempts, RETRY_DELAYS_SECONDS.length + 1);
    assert.equal(failed.last_status_code, 503);
    assert.equal(failed.next_attempt_at, null);
    assert.equal(failed.user_id, u.user.id);
    assert.equal(failed.client_id, client.client_id);
    assert.ok(!JSON.stringify(all).includes('logout_token'), 'no token is kept, so none is shown');
    assert.deepEqual(
      (await log('?status=failed')).body.data.map((b: { id: string }) => b.id),
      [failed.id],
    );
    assert.deepEqual(
      (await log('?limit=1')).body.data.map((b: { id: string }) => b.id),
      [delivered.id],
    );
    assert.deepEqual(
      (await log(`?before=${encodeURIComponent(delivered.created_at)}`)).body.data.map(
        (b: { id: string }) => b.id,
      ),
      [failed.id],
    );
    for (const q of ['?status=lost', '?limit=0', '?limit=201', '?limit=1e1', '?before=yesterday']) {
      const res = await log(q);
      assert.equal(res.status, 400, q);
      assert.equal(res.body.error, 'invalid_request', q);
    }
    assert.equal((await adminRequest(t, 'GET', '/clients/nope/backchannel-logouts')).status, 404);

    const from = receiver.received.length;
    const replayed = await adminRequest(t, 'POST', `/backchannel-logouts/${failed.id}/replay`);
    assert.equal(replayed.status, 202);
    assert.equal(replayed.body.status, 'pending');
    assert.equal(replayed.body.attempts, 0);
    assert.equal(new Date(replayed.body.next_attempt_at).getTime(), t.clock.now().getTime());
    assert.equal(await t.c.backchannelLogouts.deliverDue(), 1);
    const [token] = logoutTokens(from);
    const { payload } = await jwtVerify(token, jwks, {
      issuer: BASE,
      audience: client.client_id,
      currentDate: t.clock.now(),
    });
    assert.equal(payload.sid, missed, 'a fresh token for the same session');
    assert.equal((await rowsOf(missed))[0].status, 'delivered');

    for (const id of ['nope', '00000000-0000-4000-8000-000000000000'])
      assert.equal((await adminRequest(t, 'POST', `/backchannel-logouts/${id}/replay`)).status, 404, id);
    assert.equal((await adminRequest(t, 'DELETE', `/clients/${client.client_id}`)).status, 204);
    const afterDeletion = await adminRequest(t, 'POST', `/backchannel-logouts/${failed.id}/replay`);
    assert.equal(afterDeletion.status, 404, 'a deleted client is never called');
    assert.equal((await rowsOf(missed))[0].status, 'delivered', 'and its log is left as it was');
  });

  test('housekeeping removes a logout after the events retention', async () => {
    const client = await publicClient();
    const u = await signUp(t);
    const sid = decodeJwt((await sessionWith(client.client_id, u)).access_token).sid as string;
    await t.c.db.transaction((tx) => t.c.sessions.revoke(tx, sid, 'admin'));
    await t.c.backchannelLogouts.deliverDue();
    await housekeeping(t.c.db).run(addSeconds(t.clock.now(), EVENT_RETENTION_SECONDS - 60));
    assert.equal((await rowsOf(sid)).length, 1);
    await housekeeping(t.c.db).run(addSeconds(t.clock.now(), EVENT_RETENTION_SECONDS + 60));
    assert.equal((await rowsOf(sid)).length, 0);
  });
});

describe('the logout URI is checked as a webhook URL', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN } });
  });
  after(() => t.close());

  for (const [uri, why] of [
    ['http://rp.example/logout', /must use https/],
    ['https://rp.example/logout#x', /fragment/],
    ['https://127.0.0.1/logout', /must not point at 127\.0\.0\.1/],
    ['https://user:pw@rp.example/logout', /credentials/],
    ['logout', /absolute URL/],
    [42, /at most 2048/],
  ] as const) {
    test(`refuses ${JSON.stringify(uri)}`, async () => {
      const res = await adminRequest(t, 'POST', '/clients', {
        client_name: 'RP',
        redirect_uris: ['https://rp.example/callback'],
        backchannel_logout_uri: uri,
      });
      assert.equal(res.status, 400);
      assert.equal(res.body.error, 'invalid_request');
      assert.match(res.body.error_description, why);
    });
  }

  test('an https URI is kept, shown, changed and removed', async () => {
    const created = await registerClient(t, { backchannel_logout_uri: 'https://rp.example/logout' });
    const read = await adminRequest(t, 'GET', `/clients/${created.client_id}`);
    assert.equal(read.body.backchannel_logout_uri, 'https://rp.example/logout');
    const renamed = await adminRequest(t, 'PATCH', `/clients/${created.client_id}`, { client_name: 'RP 2' });
    assert.equal(renamed.body.backchannel_logout_uri, 'https://rp.example/logout', 'kept by other changes');
    const removed = await adminRequest(t, 'PATCH', `/clients/${created.client_id}`, {
      backchannel_logout_uri: null,
    });
    assert.equal(removed.body.backchannel_logout_uri, null);
  });
});
