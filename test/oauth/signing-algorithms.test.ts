import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { signJwt } from '../../src/domain/sessions/access-tokens.ts';
import { signUp, type TestApp } from '../helpers/app.ts';
import { adminRequest, registerClient } from '../helpers/oauth.ts';
import { codeFlow, discoverAs, listeningApp } from '../helpers/relying-party.ts';

const ALGS = ['RS256', 'PS256', 'ES256', 'EdDSA'];

describe('signing algorithms: a key of each, chosen per client, and the access tokens by setting', () => {
  let t: TestApp;
  let issuer: string;
  before(async () => {
    ({ t, issuer } = await listeningApp());
  });
  after(() => t.close());

  test('JWKS publishes a key of each algorithm; discovery lists them for ID tokens, userinfo and client assertions', async () => {
    const { keys } = (await t.request('GET', '/.well-known/jwks.json')).body;
    assert.deepEqual(keys.map((k: { alg: string }) => k.alg).sort(), [...ALGS].sort());
    for (const key of keys) {
      assert.equal(key.use, 'sig');
      assert.equal(key.d, undefined, 'no private part');
    }
    const kty = Object.fromEntries(
      keys.map((k: { alg: string; kty: string; crv?: string }) => [k.alg, k.kty]),
    );
    assert.deepEqual(kty, { RS256: 'RSA', PS256: 'RSA', ES256: 'EC', EdDSA: 'OKP' });
    const meta = (await t.request('GET', '/.well-known/openid-configuration')).body;
    assert.deepEqual(meta.id_token_signing_alg_values_supported, ALGS);
    assert.deepEqual(meta.userinfo_signing_alg_values_supported, ALGS);
    assert.deepEqual(
      meta.token_endpoint_auth_signing_alg_values_supported,
      [...ALGS, 'Ed25519'],
      'RFC 9864 too',
    );
  });

  for (const alg of ['PS256', 'ES256', 'EdDSA'])
    test(`a client registered for ${alg} ID tokens and userinfo JWTs gets them, as openid-client checks`, async () => {
      const user = await signUp(t);
      const client = await registerClient(t, {
        token_endpoint_auth_method: 'none',
        id_token_signed_response_alg: alg,
        userinfo_signed_response_alg: alg,
      });
      const config = await discoverAs(issuer, client.client_id, {
        id_token_signed_response_alg: alg,
        userinfo_signed_response_alg: alg,
      });
      const tokens = await codeFlow(t, config, user);
      assert.equal(decodeProtectedHeader(tokens.id_token as string).alg, alg);
      assert.equal(decodeProtectedHeader(tokens.access_token).alg, 'RS256', 'access tokens keep RS256');
      const claims = tokens.claims();
      const info = await oidc.fetchUserInfo(config, tokens.access_token, claims?.sub as string);
      assert.equal(info.phone_number, user.phone);
      // The userinfo answer itself: a JWT of that algorithm for this client, from this issuer.
      const raw = await fetch(`${issuer}/oauth/userinfo`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      assert.match(String(raw.headers.get('content-type')), /^application\/jwt/);
      const jwks = createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks.json`));
      const { payload, protectedHeader } = await jwtVerify(await raw.text(), jwks, {
        issuer,
        audience: client.client_id,
      });
      assert.equal(protectedHeader.alg, alg);
      assert.equal(payload.sub, claims?.sub);
    });

  test('a client that registered no algorithm keeps RS256 ID tokens and JSON userinfo', async () => {
    const user = await signUp(t);
    const client = await registerClient(t, { token_endpoint_auth_method: 'none' });
    const config = await discoverAs(issuer, client.client_id);
    const tokens = await codeFlow(t, config, user);
    assert.equal(decodeProtectedHeader(tokens.id_token as string).alg, 'RS256');
    const raw = await fetch(`${issuer}/oauth/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    assert.match(String(raw.headers.get('content-type')), /^application\/json/);
  });

  test('an algorithm this service does not sign with is refused at registration, naming the field', async () => {
    for (const field of ['id_token_signed_response_alg', 'userinfo_signed_response_alg']) {
      for (const alg of ['none', 'HS256', 'RS512']) {
        const res = await adminRequest(t, 'POST', '/clients', {
          client_name: 'RP',
          redirect_uris: ['https://rp.example/cb'],
          [field]: alg,
        });
        assert.equal(res.status, 400, `${field}=${alg}`);
        assert.match(
          res.body.error_description,
          new RegExp(`^${field} must be one of RS256, PS256, ES256, EdDSA`),
        );
      }
    }
    // A change of algorithm applies to the next ID token.
    const client = await registerClient(t, { token_endpoint_auth_method: 'none' });
    const changed = await adminRequest(t, 'PATCH', `/clients/${client.client_id}`, {
      id_token_signed_response_alg: 'ES256',
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal(changed.body.id_token_signed_response_alg, 'ES256');
    assert.equal(changed.body.userinfo_signed_response_alg, null);
  });

  test('a token naming the RS256 key but signed as PS256 with it is refused: a key verifies its own algorithm only', async () => {
    const user = await signUp(t);
    const claims = JSON.parse(Buffer.from(user.access_token.split('.')[1], 'base64url').toString());
    const { kid, privateKey } = t.c.keys.signingKey('RS256');
    const forged = signJwt('PS256', { kid, typ: 'JWT' }, claims, privateKey);
    assert.equal((await t.request('GET', '/users/me', { token: forged })).status, 401);
    const honest = signJwt('RS256', { kid, typ: 'JWT' }, claims, privateKey);
    assert.equal((await t.request('GET', '/users/me', { token: honest })).status, 200);
  });

  test("a client's token naming the RS256 key but signed as PS256 with it is refused too", async () => {
    const issued = t.c.clientTokens.issue({ clientId: 'c_signing_algs', scope: 'openid' });
    const claims = await t.c.clientTokens.verify(issued);
    const { kid, privateKey } = t.c.keys.signingKey('RS256');
    const forged = signJwt('PS256', { kid, typ: 'at+jwt' }, { ...claims }, privateKey);
    await assert.rejects(t.c.clientTokens.verify(forged), { error: 'invalid_token' });
    const honest = signJwt('RS256', { kid, typ: 'at+jwt' }, { ...claims }, privateKey);
    assert.deepEqual(await t.c.clientTokens.verify(honest), claims);
  });
});

describe('ACCESS_TOKEN_ALG', () => {
  let t: TestApp;
  let issuer: string;
  before(async () => {
    ({ t, issuer } = await listeningApp({ ACCESS_TOKEN_ALG: 'ES256' }));
  });
  after(() => t.close());

  test('signs every access token (REST and OAuth) with its algorithm; they verify from the JWKS and are accepted', async () => {
    const user = await signUp(t);
    assert.equal(decodeProtectedHeader(user.access_token).alg, 'ES256');
    assert.equal((await t.request('GET', '/users/me', { token: user.access_token })).status, 200);
    const client = await registerClient(t, { token_endpoint_auth_method: 'none' });
    const config = await discoverAs(issuer, client.client_id);
    const tokens = await codeFlow(t, config, user);
    assert.equal(decodeProtectedHeader(tokens.access_token).alg, 'ES256');
    assert.equal(decodeProtectedHeader(tokens.id_token as string).alg, 'RS256', "the client's own algorithm");
    const jwks = createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks.json`));
    await jwtVerify(tokens.access_token, jwks, { issuer, audience: client.client_id, algorithms: ['ES256'] });
    assert.equal(
      (await oidc.fetchUserInfo(config, tokens.access_token, oidc.skipSubjectCheck)).phone_number,
      user.phone,
    );
  });

  test('an unknown value stops the start, naming the variable', async () => {
    await assert.rejects(listeningApp({ ACCESS_TOKEN_ALG: 'HS256' }), /ACCESS_TOKEN_ALG/);
  });
});
