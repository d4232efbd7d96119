import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT } from 'jose';
import * as oidc from 'openid-client';
import { type SignedUp, signUp, type TestApp } from '../helpers/app.ts';
import {
  authorizationParams,
  authorizeUrl,
  authorizeWithPin,
  pkce,
  REDIRECT,
  registerClient,
  signInForm,
} from '../helpers/oauth.ts';
import { authorizationRequest, codeFlow, discoverAs, listeningApp } from '../helpers/relying-party.ts';

/** A client's ES256 key: the private half to sign with, the public JWK for its registration. */
async function clientKey() {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid: randomUUID(), alg: 'ES256' } };
}

describe('pushed authorization requests (RFC 9126) and request objects (RFC 9101)', () => {
  let t: TestApp;
  let issuer: string;
  let user: SignedUp;
  let key: Awaited<ReturnType<typeof clientKey>>;
  let keyClient: { client_id: string };
  let secretClient: { client_id: string; client_secret: string };
  let keyConfig: oidc.Configuration;
  before(async () => {
    ({ t, issuer } = await listeningApp());
    user = await signUp(t);
    key = await clientKey();
    keyClient = await registerClient(t, {
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [key.jwk] },
    });
    secretClient = (await registerClient(t)) as { client_id: string; client_secret: string };
    keyConfig = await discoverAs(issuer, keyClient.client_id, {}, oidc.PrivateKeyJwt(key.privateKey));
  });
  after(() => t.close());

  const push = (form: Record<string, string>) =>
    t.request('POST', '/oauth/par', {
      body: new URLSearchParams(form).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const secretForm = () => ({ client_id: secretClient.client_id, client_secret: secretClient.client_secret });
  /** Pushes this public-form request as the secret client; answers its request_uri. */
  const pushed = async (extra: Record<string, string> = {}) => {
    const res = await push({
      ...authorizationParams(secretClient.client_id, pkce().challenge),
      ...secretForm(),
      ...extra,
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.request_uri as string;
  };

  test('openid-client pushes, opens the page with client_id and request_uri alone, and gets its tokens', async () => {
    const meta = keyConfig.serverMetadata();
    assert.equal(meta.pushed_authorization_request_endpoint, `${issuer}/oauth/par`);
    assert.equal(meta.require_pushed_authorization_requests, false);
    const { url } = await authorizationRequest(keyConfig, { par: true });
    assert.deepEqual([...url.searchParams.keys()].sort(), ['client_id', 'request_uri']);
    assert.match(String(url.searchParams.get('request_uri')), /^urn:ietf:params:oauth:request_uri:/);
    const tokens = await codeFlow(t, keyConfig, user, { par: true });
    assert.equal(tokens.claims()?.phone_number, user.phone);
  });

  test('the answer is 201 {request_uri, expires_in: 60}; a public client pushes with its client_id', async () => {
    const pub = await registerClient(t, { token_endpoint_auth_method: 'none' });
    const res = await push(authorizationParams(pub.client_id, pkce().challenge));
    assert.equal(res.status, 201);
    assert.equal(res.body.expires_in, 60);
    assert.equal(res.headers['cache-control'], 'no-store');
  });

  test('a request_uri works for its client only, until its code is issued or 60 s pass; a reload before is fine', async () => {
    const uri = await pushed();
    const other = await registerClient(t, { token_endpoint_auth_method: 'none' });
    const stolen = await t.request('GET', authorizeUrl({ client_id: other.client_id, request_uri: uri }));
    assert.equal(stolen.status, 400, "another client's");
    assert.match(String(stolen.body), /expired or was already used/);
    const page = { client_id: secretClient.client_id, request_uri: uri };
    assert.equal((await t.request('GET', authorizeUrl(page))).status, 200);
    assert.equal((await t.request('GET', authorizeUrl(page))).status, 200, 'a reload (RFC 9126 §4)');
    const back = await authorizeWithPin(t, page, user);
    assert.ok(back.searchParams.get('code'));
    assert.equal((await t.request('GET', authorizeUrl(page))).status, 400, 'finished: dead');
    const late = await pushed();
    t.clock.advance(60);
    assert.equal(
      (await t.request('GET', authorizeUrl({ ...page, request_uri: late }))).status,
      400,
      'expired',
    );
    const made = {
      client_id: secretClient.client_id,
      request_uri: 'urn:ietf:params:oauth:request_uri:made-up',
    };
    assert.equal((await t.request('GET', authorizeUrl(made))).status, 400, 'unknown');
  });

  test('a pushed request finishes once, also when two tabs finish it together', async () => {
    const uri = await pushed();
    const { page } = await signInForm(t, { client_id: secretClient.client_id, request_uri: uri });
    assert.equal(page.status, 200);
    const [hash] = await t.c.db.query<{ reference_hash: string }>(
      'SELECT reference_hash FROM pushed_authorization_requests ORDER BY created_at DESC LIMIT 1',
    );
    const finished = await Promise.all(
      [1, 2, 3].map(() => t.c.authorizationRequests.finishPushed(hash.reference_hash)),
    );
    assert.deepEqual(finished.filter(Boolean), [true]);
  });

  test('only the pushed parameters count: the outer ones are ignored', async () => {
    const uri = await pushed({ scope: 'openid' });
    const back = await authorizeWithPin(
      t,
      {
        client_id: secretClient.client_id,
        request_uri: uri,
        scope: 'openid profile',
        state: 'outer',
        redirect_uri: 'https://evil.example/cb',
      },
      user,
    );
    assert.equal(`${back.origin}${back.pathname}`, REDIRECT);
    assert.equal(back.searchParams.get('state'), 'st-1', 'the pushed state');
  });

  test('refused at the push, as JSON: a bad redirect_uri, no PKCE, a request_uri, no authentication, another client_id', async () => {
    const base = { ...authorizationParams(secretClient.client_id, pkce().challenge), ...secretForm() };
    const cases: [string, Record<string, string>, number, string][] = [
      ['redirect_uri', { ...base, redirect_uri: 'https://evil.example/cb' }, 400, 'invalid_request'],
      ['no PKCE', { ...base, code_challenge: '' }, 400, 'invalid_request'],
      ['scope', { ...base, scope: 'openid kyc' }, 400, 'invalid_scope'],
      [
        'request_uri',
        { ...base, request_uri: 'urn:ietf:params:oauth:request_uri:x' },
        400,
        'invalid_request',
      ],
      ['no secret', { ...base, client_secret: 'wrong' }, 401, 'invalid_client'],
      ["another client's id", { ...base, client_id: keyClient.client_id }, 401, 'invalid_client'],
    ];
    for (const [why, form, status, error] of cases) {
      const res = await push(form);
      assert.equal(res.status, status, why);
      assert.equal(res.body.error, error, `${why}: ${JSON.stringify(res.body)}`);
    }
  });

  test('a client registered to push, or every client under REQUIRE_PAR, gets nothing from a request not pushed', async () => {
    const strict = (await registerClient(t, { require_pushed_authorization_requests: true })) as {
      client_id: string;
      client_secret: string;
    };
    const plain = await t.request(
      'GET',
      authorizeUrl(authorizationParams(strict.client_id, pkce().challenge)),
    );
    assert.equal(plain.status, 302);
    const back = new URL(String(plain.headers.location));
    assert.equal(back.searchParams.get('error'), 'invalid_request');
    assert.match(String(back.searchParams.get('error_description')), /must push/);
    const everyone = await listeningApp({ REQUIRE_PAR: 'true' });
    try {
      const meta = (await everyone.t.request('GET', '/.well-known/openid-configuration')).body;
      assert.equal(meta.require_pushed_authorization_requests, true);
      const pub = await registerClient(everyone.t, { token_endpoint_auth_method: 'none' });
      const refused = await everyone.t.request(
        'GET',
        authorizeUrl(authorizationParams(pub.client_id, pkce().challenge)),
      );
      assert.equal(new URL(String(refused.headers.location)).searchParams.get('error'), 'invalid_request');
      const config = await discoverAs(everyone.issuer, pub.client_id);
      const fresh = await signUp(everyone.t);
      assert.ok((await codeFlow(everyone.t, config, fresh, { par: true })).access_token);
    } finally {
      await everyone.t.close();
    }
  });

  test('a request object signed by the client works at /authorize and in a push; only what it carries counts', async () => {
    const direct = await codeFlow(t, keyConfig, user, { jar: key.privateKey as CryptoKey });
    assert.ok(direct.access_token);
    const both = await codeFlow(t, keyConfig, user, { jar: key.privateKey as CryptoKey, par: true });
    assert.ok(both.access_token);
    const meta = keyConfig.serverMetadata();
    assert.equal(meta.request_parameter_supported, true);
    assert.deepEqual(meta.request_object_signing_alg_values_supported, [
      'RS256',
      'PS256',
      'ES256',
      'EdDSA',
      'Ed25519',
    ]);
  });

  test('refused with invalid_request_object: alg none, another key, expired, wrong aud or iss, a client_id of another', async () => {
    const other = await clientKey();
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const claims = { ...authorizationParams(keyClient.client_id, pkce().challenge) };
    const signed = (
      k: CryptoKey,
      over: { iss?: string; aud?: string; exp?: number; client_id?: string } = {},
    ) =>
      new SignJWT({ ...claims, ...(over.client_id ? { client_id: over.client_id } : {}) })
        .setProtectedHeader({ alg: 'ES256', kid: key.jwk.kid })
        .setIssuer(over.iss ?? keyClient.client_id)
        .setAudience(over.aud ?? issuer)
        .setExpirationTime(over.exp ?? now + 60)
        .sign(k);
    const none = new UnsecuredJWT(claims)
      .setIssuer(keyClient.client_id)
      .setAudience(issuer)
      .setExpirationTime(now + 60)
      .encode();
    const cases: [string, string][] = [
      ['none', none],
      ['another key', await signed(other.privateKey as CryptoKey)],
      ['expired', await signed(key.privateKey as CryptoKey, { exp: now - 60 })],
      ['aud', await signed(key.privateKey as CryptoKey, { aud: 'https://elsewhere.example' })],
      ['iss', await signed(key.privateKey as CryptoKey, { iss: secretClient.client_id })],
      ['client_id', await signed(key.privateKey as CryptoKey, { client_id: secretClient.client_id })],
      ['over an hour', await signed(key.privateKey as CryptoKey, { exp: now + 3700 })],
    ];
    for (const [why, request] of cases) {
      const res = await t.request(
        'GET',
        authorizeUrl({ client_id: keyClient.client_id, redirect_uri: REDIRECT, request }),
      );
      assert.equal(res.status, 302, why);
      assert.equal(
        new URL(String(res.headers.location)).searchParams.get('error'),
        'invalid_request_object',
        why,
      );
      const noOuterUri = await t.request('GET', authorizeUrl({ client_id: keyClient.client_id, request }));
      assert.equal(noOuterUri.status, 400, `${why}: no redirect URI to trust`);
      const atPush = await t.request('POST', '/oauth/par', {
        body: new URLSearchParams({
          request,
          client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
          client_assertion: await new SignJWT({ jti: randomUUID() })
            .setProtectedHeader({ alg: 'ES256', kid: key.jwk.kid })
            .setIssuer(keyClient.client_id)
            .setSubject(keyClient.client_id)
            .setAudience(issuer)
            .setExpirationTime(now + 60)
            .sign(key.privateKey),
        }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(atPush.status, 400, why);
      assert.equal(atPush.body.error, 'invalid_request_object', why);
    }
    // A client with no keys cannot sign one; a request_uri that is a URL is not fetched.
    const noKeys = await t.request(
      'GET',
      authorizeUrl({
        client_id: secretClient.client_id,
        redirect_uri: REDIRECT,
        request: await signed(key.privateKey as CryptoKey, { iss: secretClient.client_id }),
      }),
    );
    assert.equal(
      new URL(String(noKeys.headers.location)).searchParams.get('error'),
      'invalid_request_object',
    );
    const byUrl = await t.request(
      'GET',
      authorizeUrl({
        client_id: secretClient.client_id,
        redirect_uri: REDIRECT,
        request_uri: 'https://rp.example/request.jwt',
      }),
    );
    assert.equal(
      new URL(String(byUrl.headers.location)).searchParams.get('error'),
      'request_uri_not_supported',
    );
  });
});
