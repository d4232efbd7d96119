import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { calculateJwkThumbprint, decodeJwt, exportJWK, generateKeyPair, SignJWT } from 'jose';
import * as oidc from 'openid-client';
import { type SignedUp, signUp, type TestApp } from '../helpers/app.ts';
import { authorizationParams, authorizeWithPin, pkce, REDIRECT, registerClient } from '../helpers/oauth.ts';
import { codeFlow, discoverAs, listeningApp } from '../helpers/relying-party.ts';

/** A DPoP key of the client's, and proofs made with it by hand (for the refusals a library never makes). */
async function dpopKey() {
  const pair = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(pair.publicKey);
  return { pair, jwk, jkt: await calculateJwkThumbprint(jwk) };
}
type DpopKey = Awaited<ReturnType<typeof dpopKey>>;

const ath = (token: string) => createHash('sha256').update(token).digest('base64url');

describe('DPoP (RFC 9449): tokens bound to the client key', () => {
  let t: TestApp;
  let issuer: string;
  let user: SignedUp;
  let pub: { client_id: string };
  let config: oidc.Configuration;
  before(async () => {
    ({ t, issuer } = await listeningApp({ RATE_LIMITS: 'signin_phone=1000/900,signin_address=1000/900' }));
    user = await signUp(t);
    pub = await registerClient(t, { token_endpoint_auth_method: 'none', scope: 'openid phone profile' });
    config = await discoverAs(issuer, pub.client_id);
  });
  after(() => t.close());

  const proof = (
    k: DpopKey,
    claims: { htm: string; htu: string; ath?: string; iat?: number; jti?: string },
  ) =>
    new SignJWT({ jti: randomUUID(), iat: Math.floor(t.clock.now().getTime() / 1000), ...claims })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: k.jwk })
      .sign(k.pair.privateKey);
  const userinfo = (token: string, headers: Record<string, string>) =>
    fetch(`${issuer}/oauth/userinfo`, { headers: { authorization: `DPoP ${token}`, ...headers } });

  /** A DPoP-bound token of the public client, with its refresh token and key, by openid-client. */
  async function boundTokens() {
    const keyPair = await oidc.randomDPoPKeyPair('ES256');
    const handle = oidc.getDPoPHandle(config, keyPair);
    const tokens = await codeFlow(t, config, user, { dpop: handle });
    const jwk = await exportJWK(keyPair.publicKey);
    const jkt = await calculateJwkThumbprint(jwk);
    return { tokens, handle, jkt, key: { pair: keyPair as DpopKey['pair'], jwk, jkt } };
  }

  test('openid-client binds the tokens to its key, and reads userinfo and /api/v1 with proofs', async () => {
    assert.deepEqual(config.serverMetadata().dpop_signing_alg_values_supported, [
      'RS256',
      'PS256',
      'ES256',
      'EdDSA',
      'Ed25519',
    ]);
    const { tokens, handle, jkt } = await boundTokens();
    assert.equal(tokens.token_type, 'dpop');
    assert.deepEqual(decodeJwt(tokens.access_token).cnf, { jkt });
    const info = await oidc.fetchUserInfo(config, tokens.access_token, oidc.skipSubjectCheck, {
      DPoP: handle,
    });
    assert.equal(info.phone_number, user.phone);
    const me = await oidc.fetchProtectedResource(
      config,
      tokens.access_token,
      new URL(`${issuer}/api/v1/users/me`),
      'GET',
      undefined,
      undefined,
      { DPoP: handle },
    );
    assert.equal(me.status, 200);
    assert.equal((await me.json()).phone, user.phone);
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token as string, undefined, {
      DPoP: handle,
    });
    assert.deepEqual(decodeJwt(refreshed.access_token).cnf, { jkt });
  });

  test('refused at the resources: as Bearer, another method, URL, token or key, a replayed jti, an old proof', async () => {
    const { tokens, key } = await boundTokens();
    const token = tokens.access_token;
    const htu = `${issuer}/oauth/userinfo`;
    const asBearer = await fetch(htu, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(asBearer.status, 401);
    assert.match(String(asBearer.headers.get('www-authenticate')), /^Bearer error="invalid_token"/);
    const other = await dpopKey();
    const once = await proof(key, { htm: 'GET', htu, ath: ath(token) });
    assert.equal((await userinfo(token, { dpop: once })).status, 200, 'a good proof');
    const cases: [string, string][] = [
      ['replayed jti', once],
      ['another method', await proof(key, { htm: 'POST', htu, ath: ath(token) })],
      ['another URL', await proof(key, { htm: 'GET', htu: `${issuer}/oauth/token`, ath: ath(token) })],
      ['another token', await proof(key, { htm: 'GET', htu, ath: ath(`${token}x`) })],
      ['another key', await proof(other, { htm: 'GET', htu, ath: ath(token) })],
      ['no ath', await proof(key, { htm: 'GET', htu })],
      [
        'old',
        await proof(key, {
          htm: 'GET',
          htu,
          ath: ath(token),
          iat: Math.floor(t.clock.now().getTime() / 1000) - 61,
        }),
      ],
    ];
    for (const [why, dpop] of cases) {
      const res = await userinfo(token, { dpop });
      assert.equal(res.status, 401, why);
      assert.equal((await res.json()).error, 'invalid_dpop_proof', why);
      assert.match(
        String(res.headers.get('www-authenticate')),
        /^DPoP error="invalid_dpop_proof".*algs="/,
        why,
      );
    }
    const none = await userinfo(token, {});
    assert.equal((await none.json()).error, 'invalid_dpop_proof', 'no proof at all');
    const api = await fetch(`${issuer}/api/v1/users/me`, {
      headers: {
        authorization: `DPoP ${token}`,
        dpop: await proof(other, { htm: 'GET', htu: `${issuer}/api/v1/users/me`, ath: ath(token) }),
      },
    });
    assert.equal(api.status, 401);
    assert.match(String(api.headers.get('www-authenticate')), /^DPoP error="invalid_dpop_proof"/);
  });

  test('a token not bound to a key is a bearer token only', async () => {
    const plain = await codeFlow(t, config, user);
    assert.equal(plain.token_type, 'bearer');
    const k = await dpopKey();
    const res = await userinfo(plain.access_token, {
      dpop: await proof(k, { htm: 'GET', htu: `${issuer}/oauth/userinfo`, ath: ath(plain.access_token) }),
    });
    assert.equal(res.status, 401);
    assert.equal((await res.json()).error, 'invalid_token');
  });

  test("a public client's refresh token needs its key: without it or with another, refused, and the session lives on", async () => {
    const { tokens, handle } = await boundTokens();
    const refresh = (form: Record<string, string>, dpop?: string) =>
      t.request('POST', '/oauth/token', {
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          client_id: pub.client_id,
          ...form,
        }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(dpop ? { dpop } : {}) },
      });
    const rt = tokens.refresh_token as string;
    assert.equal((await refresh({ refresh_token: rt })).body.error, 'invalid_grant', 'no proof');
    const other = await dpopKey();
    const withOther = await refresh(
      { refresh_token: rt },
      await proof(other, { htm: 'POST', htu: `${issuer}/oauth/token` }),
    );
    assert.equal(withOther.body.error, 'invalid_grant', 'another key');
    const refreshed = await oidc.refreshTokenGrant(config, rt, undefined, { DPoP: handle });
    assert.ok(refreshed.access_token, 'the holder of the key still refreshes');
  });

  test('dpop_jkt binds the code: exchanged with another key, refused; pushed with a proof, bound to it', async () => {
    const k = await dpopKey();
    const { verifier, challenge } = pkce();
    const back = await authorizeWithPin(
      t,
      authorizationParams(pub.client_id, challenge, { dpop_jkt: k.jkt }),
      user,
    );
    const other = await dpopKey();
    const exchange = await t.request('POST', '/oauth/token', {
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: pub.client_id,
        code: back.searchParams.get('code') as string,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      }).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        dpop: await proof(other, { htm: 'POST', htu: `${issuer}/oauth/token` }),
      },
    });
    assert.equal(exchange.body.error, 'invalid_grant');
    assert.match(exchange.body.error_description, /dpop_jkt/);
    const keyPair = await oidc.randomDPoPKeyPair('ES256');
    const handle = oidc.getDPoPHandle(config, keyPair);
    const pushed = await codeFlow(t, config, user, { par: true, dpop: handle });
    assert.equal(pushed.token_type, 'dpop');
  });

  test('a client registered for DPoP is refused a token request without a proof', async () => {
    const strict = await registerClient(t, {
      token_endpoint_auth_method: 'none',
      dpop_bound_access_tokens: true,
    });
    const { verifier, challenge } = pkce();
    const back = await authorizeWithPin(t, authorizationParams(strict.client_id, challenge), user);
    const res = await t.request('POST', '/oauth/token', {
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: strict.client_id,
        code: back.searchParams.get('code') as string,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'invalid_dpop_proof');
  });

  test('introspection answers the cnf.jkt and token_type of a bound token', async () => {
    const conf = (await registerClient(t)) as { client_id: string; client_secret: string };
    const confConfig = await discoverAs(
      issuer,
      conf.client_id,
      {},
      oidc.ClientSecretBasic(conf.client_secret),
    );
    const keyPair = await oidc.randomDPoPKeyPair('ES256');
    const tokens = await codeFlow(t, confConfig, user, { dpop: oidc.getDPoPHandle(confConfig, keyPair) });
    const seen = await oidc.tokenIntrospection(confConfig, tokens.access_token);
    assert.equal(seen.token_type, 'DPoP');
    assert.deepEqual(seen.cnf, { jkt: await calculateJwkThumbprint(await exportJWK(keyPair.publicKey)) });
    const rt = await oidc.tokenIntrospection(confConfig, tokens.refresh_token as string);
    assert.equal(
      rt.cnf,
      undefined,
      "a confidential client's refresh token is bound to the client, not the key",
    );
  });
});

describe('DPoP server nonces (DPOP_NONCE=required)', () => {
  let t: TestApp;
  let issuer: string;
  before(async () => {
    ({ t, issuer } = await listeningApp({ DPOP_NONCE: 'required' }));
  });
  after(() => t.close());

  test('a proof without the nonce is answered use_dpop_nonce with one; openid-client retries with it and succeeds', async () => {
    const user = await signUp(t);
    const pub = await registerClient(t, { token_endpoint_auth_method: 'none' });
    const config = await discoverAs(issuer, pub.client_id);
    const k = await dpopKey();
    const bare = await new SignJWT({
      jti: randomUUID(),
      iat: Math.floor(t.clock.now().getTime() / 1000),
      htm: 'POST',
      htu: `${issuer}/oauth/token`,
    })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: k.jwk })
      .sign(k.pair.privateKey);
    const refused = await t.request('POST', '/oauth/token', {
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: pub.client_id,
        refresh_token: 'x',
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: bare },
    });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, 'use_dpop_nonce');
    assert.ok(refused.headers['dpop-nonce']);
    const handle = oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair('ES256'));
    const tokens = await codeFlow(t, config, user, { dpop: handle });
    assert.equal(tokens.token_type, 'dpop');
    const info = await oidc.fetchUserInfo(config, tokens.access_token, oidc.skipSubjectCheck, {
      DPoP: handle,
    });
    assert.equal(info.sub, tokens.claims()?.sub);
    // At the resource the ask is a 401 with the DPoP challenge.
    const atResource = await fetch(`${issuer}/oauth/userinfo`, {
      headers: {
        authorization: `DPoP ${tokens.access_token}`,
        dpop: await new SignJWT({
          jti: randomUUID(),
          iat: Math.floor(t.clock.now().getTime() / 1000),
          htm: 'GET',
          htu: `${issuer}/oauth/userinfo`,
          ath: ath(tokens.access_token),
        })
          .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: k.jwk })
          .sign(k.pair.privateKey),
      },
    });
    assert.equal(atResource.status, 401);
    assert.match(String(atResource.headers.get('www-authenticate')), /^DPoP error="use_dpop_nonce"/);
    assert.ok(atResource.headers.get('dpop-nonce'));
  });
});
