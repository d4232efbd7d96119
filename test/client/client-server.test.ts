import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createClient, memoryStorage } from '@callsign/client';
import {
  CallsignError,
  CallsignNetworkError,
  createServerClient,
  verifyAccessToken,
  verifySecurityEvent,
  verifyWebhook,
  WebhookVerificationError,
} from '@callsign/client/server';
import { signDelivery } from '../../src/domain/webhooks/signature.js';
import { uniquePhone } from '../helpers/app.ts';
import { type ListeningApp, listeningApp, signUpWith } from '../helpers/client-app.ts';
import { freePort } from '../helpers/free-port.ts';
import { ADMIN_TOKEN, adminRequest, basicAuth, registerClient } from '../helpers/oauth.ts';

// @callsign/client/server: a backend's check of access tokens (the service's JWKS, fetched over HTTP) and of
// webhook deliveries (signed by the service's own signing code), and reading users with a server API key.

const ISSUER = 'http://callsign.test';

describe('@callsign/client/server', () => {
  let s: ListeningApp;
  let jwksUrl: string;
  before(async () => {
    s = await listeningApp({ ADMIN_TOKEN });
    jwksUrl = `${s.baseUrl}/.well-known/jwks.json`;
  });
  after(() => s.t.close());

  const signedIn = () => signUpWith(s.t, createClient({ baseUrl: s.baseUrl, storage: memoryStorage() }));

  test('verifyAccessToken: the claims of a live token; a CallsignError for any other', async () => {
    const session = await signedIn();
    const claims = await verifyAccessToken(session.accessToken, {
      issuer: ISSUER,
      audience: 'callsign',
      jwksUrl,
    });
    assert.equal(claims.sub, session.user.id);
    assert.equal(typeof claims.sid, 'string');
    assert.match(claims.scope, /profile/);
    assert.deepEqual(claims.amr, ['otp', 'sms']);
    const refused = (token: string, options = {}) =>
      verifyAccessToken(token, { issuer: ISSUER, audience: 'callsign', jwksUrl, ...options }).catch((e) => e);
    for (const wrong of [
      await refused(session.accessToken, { audience: 'another-app' }),
      await refused(session.accessToken, { issuer: 'https://elsewhere.example' }),
      await refused(`${session.accessToken.slice(0, -4)}AAAA`),
      await refused('not a token'),
    ]) {
      assert.ok(wrong instanceof CallsignError, String(wrong));
      assert.equal(wrong.code, 'INVALID_TOKEN');
      assert.equal(wrong.status, 401);
    }
    const idToken = s.t.c.tokens.issueIdToken({
      sub: session.user.id,
      aud: 'callsign',
      ttlSeconds: 300,
      claims: {},
      alg: 'RS256',
    });
    assert.equal((await refused(idToken)).code, 'INVALID_TOKEN', 'an ID token is no access token');
  });

  test('verifySecurityEvent: a SET of a stream, as its receiver gets it; no other token passes as one', async () => {
    const client = await registerClient(s.t, { token_endpoint_auth_method: 'client_secret_basic' });
    const authorization = basicAuth({ id: client.client_id, secret: client.client_secret as string });
    const ssf = (path: string, body: unknown) =>
      s.t.request('POST', path, { body, headers: { authorization } });
    const stream = (
      await ssf('/ssf/streams', { events_requested: ['urn:callsign:secevent:event-type:phone-risk'] })
    ).body.stream_id;
    assert.equal((await ssf('/ssf/verify', { stream_id: stream, state: 'hello' })).status, 204);
    const [set] = Object.values<string>((await ssf(`/ssf/poll/${stream}`, {})).body.sets);
    const event = await verifySecurityEvent(set, { issuer: ISSUER, audience: client.client_id, jwksUrl });
    assert.equal(event.type, 'https://schemas.openid.net/secevent/ssf/event-type/verification');
    assert.deepEqual(event.event, { state: 'hello' });
    assert.deepEqual(event.subject, { format: 'opaque', id: stream });
    assert.equal(typeof event.jti, 'string');

    const session = await signedIn();
    const refused = (token: string, audience = client.client_id) =>
      verifySecurityEvent(token, { issuer: ISSUER, audience, jwksUrl }).catch((e) => e);
    for (const wrong of [
      await refused(set, 'another-app'),
      await refused(session.accessToken, 'callsign'),
      await refused(`${set.slice(0, -4)}AAAA`),
    ]) {
      assert.ok(wrong instanceof CallsignError, String(wrong));
      assert.equal(wrong.code, 'INVALID_TOKEN');
    }
  });

  test('verifyAccessToken: an expired token is TOKEN_EXPIRED; unreachable keys a CallsignNetworkError', async () => {
    s.t.clock.advance(-3600);
    const old = await signedIn();
    s.t.clock.advance(3600);
    const expired = await verifyAccessToken(old.accessToken, {
      issuer: ISSUER,
      audience: 'callsign',
      jwksUrl,
    }).catch((e) => e);
    assert.equal(expired.code, 'TOKEN_EXPIRED');
    const nowhere = `http://127.0.0.1:${await freePort()}/.well-known/jwks.json`;
    const session = await signedIn();
    const unreachable = await verifyAccessToken(session.accessToken, {
      issuer: ISSUER,
      audience: 'callsign',
      jwksUrl: nowhere,
    }).catch((e) => e);
    assert.ok(unreachable instanceof CallsignNetworkError, String(unreachable));
  });

  test('createServerClient: users by id and by phone with an API key; a user token is refused', async () => {
    const session = await signedIn();
    const { key } = (await adminRequest(s.t, 'POST', '/api-keys', { name: 'backend' })).body;
    const server = createServerClient({ baseUrl: s.baseUrl, apiKey: key });
    const user = await server.users.get(session.user.id);
    assert.deepEqual(
      {
        id: user.id,
        phone: user.phone,
        handle: user.handle,
        kyc_status: user.kyc_status,
        metadata: user.metadata,
      },
      {
        id: session.user.id,
        phone: session.user.phone,
        handle: session.user.handle,
        kyc_status: 'NONE',
        metadata: {},
      },
    );
    const found = await server.users.findByPhone(session.user.phone);
    assert.deepEqual(
      { id: found?.id, handle: found?.handle },
      { id: session.user.id, handle: session.user.handle },
    );
    assert.equal(await server.users.findByPhone(uniquePhone()), null);
    const missing = await server.users.get('00000000-0000-4000-8000-000000000000').catch((e) => e);
    assert.ok(missing instanceof CallsignError);
    assert.equal(missing.status, 404);
    const asUser = createServerClient({ baseUrl: s.baseUrl, apiKey: session.accessToken });
    await assert.rejects(asUser.users.get(session.user.id), { code: 'insufficient_scope', status: 403 });
  });
});

describe('@callsign/client/server: verifyWebhook', () => {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const body = JSON.stringify({
    id: 'evt_1',
    type: 'user.created',
    created_at: '2026-11-28T00:00:00.000Z',
    data: {},
  });
  // Deliveries signed at `now`, and checked as at `now`.
  const now = Math.floor(Date.now() / 1000);
  const at = { now: now * 1000 };

  test('either scheme alone passes, as a record of headers or a Headers object, the body as text or bytes', async () => {
    const h = signDelivery([secret], 'evt_1', now, body);
    const { 'X-Service-Signature': service, 'X-Service-Timestamp': serviceTime, ...standard } = h;
    assert.equal((await verifyWebhook(body, h, secret, at)).type, 'user.created');
    assert.equal(
      (
        await verifyWebhook(
          body,
          { 'X-Service-Signature': service, 'X-Service-Timestamp': serviceTime },
          secret,
          at,
        )
      ).id,
      'evt_1',
    );
    assert.equal(
      (await verifyWebhook(new TextEncoder().encode(body), new Headers(standard), secret, at)).id,
      'evt_1',
    );
  });

  test('during a secret roll a receiver with either secret passes', async () => {
    const next = `whsec_${randomBytes(32).toString('base64')}`;
    const h = signDelivery([next, secret], 'evt_1', now, body);
    assert.ok(await verifyWebhook(body, h, secret, at));
    assert.ok(await verifyWebhook(body, h, next, at));
  });

  test('a changed body, another secret, a stale or a missing timestamp are refused', async () => {
    const h = signDelivery([secret], 'evt_1', now, body);
    const refusals = [
      () => verifyWebhook(body.replace('user.created', 'user.deleted'), h, secret, at),
      () => verifyWebhook(body, h, `whsec_${randomBytes(32).toString('base64')}`, at),
      () => verifyWebhook(body, signDelivery([secret], 'evt_1', now - 301, body), secret, at),
      () =>
        verifyWebhook(
          body,
          { 'webhook-id': 'evt_1', 'webhook-signature': h['webhook-signature'] },
          secret,
          at,
        ),
    ];
    for (const refusal of refusals) await assert.rejects(refusal, WebhookVerificationError);
    const within = signDelivery([secret], 'evt_1', now - 299, body);
    assert.ok(await verifyWebhook(body, within, secret, at), 'within 300 s');
  });
});
