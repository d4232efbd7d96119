import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import { housekeeping } from '../../src/workers/housekeeping.ts';
import { createTestApp, type SignedUp, signUp, type TestApp, verifiedTempToken } from '../helpers/app.ts';
import { SoftAuthenticator } from '../helpers/authenticator.ts';
import { ADMIN_TOKEN, adminRequest, basicAuth } from '../helpers/oauth.ts';
import {
  ALL_EVENTS,
  CAEP,
  type SignalsClient as Client,
  endSession as endSessionOf,
  confidentialClient as newClient,
  RISC,
  sessionWith as sessionOf,
  ssfCall,
} from '../helpers/signals.ts';

// The Shared Signals transmitter (SSF 1.0) with poll delivery (RFC 8936): streams a client keeps for itself,
// events made by their real causes over HTTP (a session ended, a PIN reset, an account deleted), each SET
// verified with jose against the published keys; one client's stream never carries another's subjects.

const BASE = 'http://callsign.test';

describe('the Shared Signals transmitter', () => {
  let t: TestApp;
  let jwks: ReturnType<typeof createLocalJWKSet>;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN } });
    jwks = createLocalJWKSet((await t.request('GET', '/.well-known/jwks.json')).body);
  });
  after(() => t.close());

  const confidentialClient = () => newClient(t);
  const ssf = (client: Client, method: string, path: string, body?: unknown) =>
    ssfCall(t, client, method, path, body);
  const sessionWith = (client: Client, u: SignedUp, scope?: string) => sessionOf(t, client, u, scope);
  const newStream = async (client: Client, events = ALL_EVENTS) => {
    const res = await ssf(client, 'POST', '/ssf/streams', {
      events_requested: events,
      delivery: { method: 'urn:ietf:rfc:8936' },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.stream_id as string;
  };
  /** A poll's SETs, each verified as the receiver would, by event type; acknowledged unless asked not to. */
  async function poll(client: Client, streamId: string, ack = true) {
    const res = await ssf(client, 'POST', `/ssf/poll/${streamId}`, { maxEvents: 100 });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const events = [];
    for (const [jti, set] of Object.entries<string>(res.body.sets)) {
      const { payload, protectedHeader } = await jwtVerify(set, jwks, {
        issuer: BASE,
        audience: client.id,
        typ: 'secevent+jwt',
        currentDate: t.clock.now(),
      });
      assert.equal(payload.jti, jti);
      assert.equal(payload.exp, undefined, 'a SET has no exp (RFC 8417 §2.2)');
      assert.equal(payload.sub, undefined);
      assert.ok(protectedHeader.kid);
      const [[type, members]] = Object.entries(payload.events as Record<string, Record<string, unknown>>);
      events.push({ jti, type, members, subject: payload.sub_id as Record<string, string> });
    }
    if (ack && events.length)
      await ssf(client, 'POST', `/ssf/poll/${streamId}`, { maxEvents: 0, ack: events.map((e) => e.jti) });
    return events;
  }

  test('the transmitter’s metadata names its endpoints, its delivery and its keys (SSF §7.1)', async () => {
    const res = await t.request('GET', '/.well-known/ssf-configuration');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      spec_version: '1_0',
      issuer: BASE,
      jwks_uri: `${BASE}/.well-known/jwks.json`,
      delivery_methods_supported: ['urn:ietf:rfc:8935', 'urn:ietf:rfc:8936'],
      configuration_endpoint: `${BASE}/ssf/streams`,
      status_endpoint: `${BASE}/ssf/status`,
      verification_endpoint: `${BASE}/ssf/verify`,
      default_subjects: 'ALL',
      authorization_schemes: [{ spec_urn: 'urn:ietf:rfc:6749' }],
    });
  });

  test('a client manages its own streams; another client’s is no such stream', async () => {
    const a = await confidentialClient();
    const b = await confidentialClient();
    const created = await ssf(a, 'POST', '/ssf/streams', {
      events_requested: [`${CAEP}/session-revoked`, 'https://example.com/not-an-event'],
      description: 'our app',
    });
    assert.equal(created.status, 201);
    const id = created.body.stream_id;
    assert.equal(created.body.aud, a.id);
    assert.equal(created.body.iss, BASE);
    assert.deepEqual(created.body.events_delivered, [`${CAEP}/session-revoked`], 'only what is supported');
    assert.deepEqual(created.body.delivery, {
      method: 'urn:ietf:rfc:8936',
      endpoint_url: `${BASE}/ssf/poll/${id}`,
    });
    assert.equal((await ssf(a, 'GET', `/ssf/streams?stream_id=${id}`)).body.description, 'our app');
    const patched = await ssf(a, 'PATCH', '/ssf/streams', { stream_id: id, events_requested: ALL_EVENTS });
    assert.deepEqual(patched.body.events_delivered, ALL_EVENTS);
    assert.equal(patched.body.description, 'our app', 'PATCH keeps what it does not name');
    const listed = await ssf(a, 'GET', '/ssf/streams');
    assert.deepEqual(
      listed.body.map((s: { stream_id: string }) => s.stream_id),
      [id],
    );

    assert.equal((await ssf(b, 'GET', `/ssf/streams?stream_id=${id}`)).status, 404);
    assert.equal((await ssf(b, 'POST', '/ssf/status', { stream_id: id, status: 'disabled' })).status, 404);
    assert.equal((await ssf(b, 'POST', `/ssf/poll/${id}`, {})).status, 404);
    assert.equal((await ssf(b, 'DELETE', `/ssf/streams?stream_id=${id}`)).status, 404);
    const wrong = await ssf({ id: a.id, secret: 'not-the-secret' }, 'GET', '/ssf/streams');
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error, 'invalid_client');

    const push = await ssf(a, 'POST', '/ssf/streams', {
      events_requested: ALL_EVENTS,
      delivery: { method: 'urn:example:carrier-pigeon' },
    });
    assert.equal(push.status, 400);
    assert.equal(push.body.error, 'invalid_request');
    assert.equal((await ssf(a, 'POST', '/ssf/streams', { events_requested: [] })).status, 400);
    assert.equal((await ssf(a, 'GET', '/ssf/streams?stream_id=not-a-uuid')).status, 404);

    assert.equal((await ssf(a, 'DELETE', `/ssf/streams?stream_id=${id}`)).status, 204);
    assert.equal((await ssf(a, 'GET', `/ssf/streams?stream_id=${id}`)).status, 404);
  });

  test('a session ended, a PIN reset and an account deleted reach the stream of the client that knows the account', async () => {
    const a = await confidentialClient();
    const b = await confidentialClient();
    const [streamA, streamB] = [await newStream(a), await newStream(b)];
    const u = await signUp(t);
    const tokens = await sessionWith(a, u);
    const sid = decodeJwt(tokens.access_token).sid;
    const other = await signUp(t);
    await sessionWith(b, other);

    const revoked = await t.request('POST', '/oauth/revoke', {
      body: new URLSearchParams({ token: tokens.refresh_token }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(a) },
    });
    assert.equal(revoked.status, 200);
    const [ended] = await poll(a, streamA);
    assert.equal(ended.type, `${CAEP}/session-revoked`);
    assert.deepEqual(ended.subject, { format: 'iss_sub', iss: BASE, sub: u.user.id });
    assert.equal(ended.members.initiating_entity, 'user');
    assert.ok(sid);

    await sessionWith(a, u);
    const temp_token = await verifiedTempToken(t, u.phone, 'pin_reset');
    const reset = await t.request('POST', '/auth/pin/reset', { body: { temp_token, pin: '730194' } });
    assert.equal(reset.status, 200);
    const afterReset = await poll(a, streamA);
    assert.deepEqual(afterReset.map((e) => e.type).sort(), [
      `${CAEP}/credential-change`,
      `${CAEP}/session-revoked`,
    ]);
    const change = afterReset.find((e) => e.type === `${CAEP}/credential-change`);
    assert.equal(change?.members.credential_type, 'pin');
    assert.equal(change?.members.change_type, 'update');

    const deleted = await t.request('DELETE', '/users/me', {
      token: (await signInRest(u, '730194')).access_token,
      body: { pin: '730194', confirmation: 'DELETE MY ACCOUNT' },
    });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    const gone = await poll(a, streamA);
    assert.ok(gone.some((e) => e.type === `${RISC}/account-purged` && e.subject.sub === u.user.id));

    const seenByB = await poll(b, streamB);
    assert.ok(
      seenByB.every((e) => e.subject.sub !== u.user.id),
      'B never held a session of u: none of u’s events reach it',
    );
  });

  test('a session’s end goes only to the client whose session it was, though another knows the account', async () => {
    const a = await confidentialClient();
    const b = await confidentialClient();
    const [streamA, streamB] = [await newStream(a), await newStream(b)];
    const w = await signUp(t);
    const withA = await sessionWith(a, w);
    await sessionWith(b, w);
    const form = new URLSearchParams({ token: withA.refresh_token }).toString();
    const headers = { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(a) };
    assert.equal((await t.request('POST', '/oauth/revoke', { body: form, headers })).status, 200);
    assert.deepEqual(
      (await poll(a, streamA)).map((e) => e.type),
      [`${CAEP}/session-revoked`],
    );
    assert.deepEqual(await poll(b, streamB), []);
  });

  test('a deleted client’s streams queue nothing; what a stream holds goes as events go', async () => {
    const a = await confidentialClient();
    const stream = await newStream(a);
    const u = await signUp(t);
    await sessionWith(a, u);
    const queued = async () =>
      (
        await t.c.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ssf_events WHERE stream_id = $1', [
          stream,
        ])
      )[0].n;
    const temp_token = await verifiedTempToken(t, u.phone, 'pin_reset');
    assert.equal(
      (await t.request('POST', '/auth/pin/reset', { body: { temp_token, pin: '730194' } })).status,
      200,
    );
    const held = await queued();
    assert.ok(held >= 2, 'the session’s end and the PIN’s change');
    assert.equal((await adminRequest(t, 'DELETE', `/clients/${a.id}`)).status, 204);
    const again = await verifiedTempToken(t, u.phone, 'pin_reset');
    assert.equal(
      (await t.request('POST', '/auth/pin/reset', { body: { temp_token: again, pin: '640291' } })).status,
      200,
    );
    assert.equal(await queued(), held, 'nothing more for a client that is gone');
    t.clock.advance(31 * 86_400);
    await housekeeping(t.c.db).run(t.clock.now());
    assert.equal(await queued(), 0);
  });

  test('a number moved reaches a client given the phone scope as RISC identifier-changed, and no other', async () => {
    const a = await confidentialClient();
    const b = await confidentialClient();
    const [streamA, streamB] = [await newStream(a), await newStream(b)];
    const u = await signUp(t);
    await sessionWith(a, u, 'openid phone');
    await sessionWith(b, u, 'openid profile');
    const next = '+14155550187';
    const asked = await t.request('POST', '/users/me/phone', {
      token: u.access_token,
      body: { phone: next },
    });
    assert.equal(asked.status, 200, JSON.stringify(asked.body));
    const moved = await t.request('POST', '/users/me/phone/confirm', {
      token: u.access_token,
      body: { phone: next, code: t.sms.lastCode(next), pin: u.pin },
    });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    const told = (await poll(a, streamA)).map(({ type, members, subject }) => ({ type, members, subject }));
    assert.deepEqual(told, [
      {
        type: `${RISC}/identifier-changed`,
        members: { 'new-value': next },
        subject: { format: 'phone_number', phone_number: u.phone },
      },
    ]);
    assert.deepEqual(await poll(b, streamB), [], 'B was not given the phone: it hears nothing of it');
  });

  test('a passkey’s sign-in raises the assurance of a client holding a one-factor session, and of no other', async () => {
    const a = await confidentialClient();
    const streamA = await newStream(a);
    const u = await signUp(t);
    const key = new SoftAuthenticator(BASE);
    const options = await t.request('POST', '/passkeys/registration/options', { token: u.access_token });
    const made = await t.request('POST', '/passkeys/registration', {
      token: u.access_token,
      body: { response: key.create(options.body.data) },
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const withA = await sessionWith(a, u);
    const byPasskey = async () => {
      const asked = await t.request('POST', '/auth/passkey/options', { body: {} });
      const res = await t.request('POST', '/auth/passkey/verify', {
        body: { response: key.get(asked.body.data) },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };
    const signedIn = await t.request('POST', '/auth/signin', { body: { phone: u.phone, pin: u.pin } });
    assert.equal(signedIn.status, 200);
    assert.deepEqual(await poll(a, streamA), [], 'a PIN’s sign-in raises nothing');
    await byPasskey();
    const raised = (await poll(a, streamA)).map(({ type, members }) => ({ type, members }));
    assert.deepEqual(raised, [
      {
        type: `${CAEP}/assurance-level-change`,
        members: {
          namespace: 'NIST-AAL',
          current_level: 'nist-aal2',
          previous_level: 'nist-aal1',
          change_direction: 'increase',
          initiating_entity: 'user',
          event_timestamp: Math.floor(t.clock.now().getTime() / 1000),
        },
      },
    ]);
    await endSessionOf(t, a, withA.refresh_token);
    await poll(a, streamA);
    await byPasskey();
    assert.deepEqual(await poll(a, streamA), [], 'A holds no live one-factor session of the account now');
  });

  /** A stream of a client that knows an account the operator then locked and unlocked. */
  async function lockedAndUnlocked() {
    const a = await confidentialClient();
    const stream = await newStream(a);
    const u = await signUp(t);
    await sessionWith(a, u);
    for (const step of ['lock', 'unlock'])
      assert.equal((await adminRequest(t, 'POST', `/users/${u.user.id}/${step}`)).status, 200);
    return { a, stream };
  }

  test('an operator’s lock and unlock reach the stream as RISC account-disabled and account-enabled', async () => {
    const { a, stream } = await lockedAndUnlocked();
    const types = (await poll(a, stream)).map((e) => e.type);
    assert.deepEqual(types, [
      `${CAEP}/session-revoked`,
      `${RISC}/account-disabled`,
      `${RISC}/account-enabled`,
    ]);
  });

  test('a poll answers at most maxEvents, and says more wait', async () => {
    const { a, stream } = await lockedAndUnlocked();
    const one = await ssf(a, 'POST', `/ssf/poll/${stream}`, { maxEvents: 1 });
    assert.equal(Object.keys(one.body.sets).length, 1, 'at most maxEvents');
    assert.equal(one.body.moreAvailable, true);
    assert.equal((await poll(a, stream)).length, 3, 'all of them on a poll that takes them');
  });

  test('a poll answers at most 100 however many it asks for', async () => {
    const a = await confidentialClient();
    const stream = await newStream(a);
    // 101 events waiting: the stream's own (verification), queued as a verification request queues one.
    for (let i = 0; i < 101; i++)
      await t.c.db.query(
        `INSERT INTO ssf_events (id, stream_id, own_event, next_attempt_at, created_at)
         VALUES (gen_random_uuid(), $1, $2::jsonb, $3, $3)`,
        [
          stream,
          JSON.stringify({
            type: 'https://schemas.openid.net/secevent/ssf/event-type/verification',
            members: {},
          }),
          t.clock.now(),
        ],
      );
    const res = await ssf(a, 'POST', `/ssf/poll/${stream}`, { maxEvents: 1000 });
    assert.equal(Object.keys(res.body.sets).length, 100);
    assert.equal(res.body.moreAvailable, true);
  });

  async function signInRest(u: SignedUp, pin: string) {
    const res = await t.request('POST', '/auth/signin', { body: { phone: u.phone, pin } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data as { access_token: string };
  }

  test('verification: the receiver’s state comes back as an event, at most once a minute (SSF §8.1.4)', async () => {
    const a = await confidentialClient();
    const stream = await newStream(a);
    assert.equal((await ssf(a, 'POST', '/ssf/verify', { stream_id: stream, state: 'check-1' })).status, 204);
    const again = await ssf(a, 'POST', '/ssf/verify', { stream_id: stream, state: 'check-2' });
    assert.equal(again.status, 429);
    const [verification] = await poll(a, stream);
    assert.equal(verification.type, 'https://schemas.openid.net/secevent/ssf/event-type/verification');
    assert.deepEqual(verification.members, { state: 'check-1' });
    assert.deepEqual(verification.subject, { format: 'opaque', id: stream });
    t.clock.advance(61);
    assert.equal((await ssf(a, 'POST', '/ssf/verify', { stream_id: stream })).status, 204);
  });

  test('a poll answers an event again until it is acknowledged; paused keeps events, disabled drops them', async () => {
    const a = await confidentialClient();
    const stream = await newStream(a);
    const u = await signUp(t);
    const endSession = async () => {
      const tokens = await sessionWith(a, u);
      const form = new URLSearchParams({ token: tokens.refresh_token }).toString();
      const headers = { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(a) };
      assert.equal((await t.request('POST', '/oauth/revoke', { body: form, headers })).status, 200);
    };
    await endSession();
    const first = await poll(a, stream, false);
    assert.equal(first.length, 1);
    assert.deepEqual(
      (await poll(a, stream)).map((e) => e.jti),
      [first[0].jti],
      'answered again, the same jti, until acknowledged',
    );
    assert.deepEqual(await poll(a, stream), []);

    const status = (s: string) => ssf(a, 'POST', '/ssf/status', { stream_id: stream, status: s });
    assert.deepEqual((await status('paused')).body, { stream_id: stream, status: 'paused' });
    await endSession();
    assert.deepEqual(await poll(a, stream), [], 'held while paused');
    await status('enabled');
    assert.equal((await poll(a, stream)).length, 1, 'delivered once enabled');
    await endSession();
    await status('disabled');
    await endSession();
    await status('enabled');
    assert.deepEqual(
      await poll(a, stream),
      [],
      'disabled: what it held and what came while disabled are gone',
    );
    assert.equal((await ssf(a, 'GET', `/ssf/status?stream_id=${stream}`)).body.status, 'enabled');
  });
});
