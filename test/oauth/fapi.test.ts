import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT } from 'jose';
import * as oidc from 'openid-client';
import { type SignedUp, signUp, type TestApp } from '../helpers/app.ts';
import { adminRequest, authorizationParams, authorizeUrl, pkce, registerClient } from '../helpers/oauth.ts';
import { codeFlow, discoverAs, listeningApp } from '../helpers/relying-party.ts';

/** A client key of this algorithm: the private half, and the public JWK to register. */
async function clientKey(alg: string) {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid: randomUUID(), alg, use: 'sig' }, alg };
}

/** openid-client set up as FAPI 2.0 asks of a client: its key for private_key_jwt, DPoP, PAR and PKCE. */
async function fapiClient(issuer: string, clientId: string, key: Awaited<ReturnType<typeof clientKey>>) {
  const config = await discoverAs(
    issuer,
    clientId,
    { id_token_signed_response_alg: 'PS256' },
    oidc.PrivateKeyJwt({ key: key.privateKey as CryptoKey, kid: key.jwk.kid }),
  );
  const dpop = oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair('ES256'));
  return { config, dpop };
}

describe('the FAPI 2.0 Security Profile, per client', () => {
  let t: TestApp;
  let issuer: string;
  let user: SignedUp;
  let key: Awaited<ReturnType<typeof clientKey>>;
  let fapi: { client_id: string };
  before(async () => {
    ({ t, issuer } = await listeningApp({ RATE_LIMITS: 'signin_phone=1000/900,signin_address=1000/900' }));
    user = await signUp(t);
    key = await clientKey('ES256');
    fapi = await registerClient(t, {
      fapi_2_0: true,
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [key.jwk] },
    });
  });
  after(() => t.close());

  test("openid-client with FAPI 2.0's settings: PAR, PKCE, private_key_jwt, DPoP; PS256 ID and access tokens", async () => {
    const { config, dpop } = await fapiClient(issuer, fapi.client_id, key);
    const tokens = await codeFlow(t, config, user, { par: true, dpop });
    assert.equal(tokens.token_type, 'dpop');
    assert.equal(decodeProtectedHeader(tokens.id_token as string).alg, 'PS256', 'the FAPI default');
    assert.equal(decodeProtectedHeader(tokens.access_token).alg, 'PS256', 'not RS256');
    assert.ok(decodeJwt(tokens.access_token).cnf);
    const back = new URL(`https://rp.example/callback?iss=${encodeURIComponent(issuer)}`);
    assert.equal(back.searchParams.get('iss'), issuer);
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token as string, undefined, {
      DPoP: dpop,
    });
    assert.equal(refreshed.token_type, 'dpop');
  });

  test('refused: a request not pushed, a token request without DPoP, an assertion signed RS256', async () => {
    const plain = await t.request('GET', authorizeUrl(authorizationParams(fapi.client_id, pkce().challenge)));
    assert.equal(new URL(String(plain.headers.location)).searchParams.get('error'), 'invalid_request');
    const { config } = await fapiClient(issuer, fapi.client_id, key);
    await assert.rejects(codeFlow(t, config, user, { par: true }), (err: { error?: string }) => {
      assert.equal(err.error, 'invalid_dpop_proof');
      return true;
    });
    const rsa = await clientKey('RS256');
    const rsaClient = await registerClient(t, {
      fapi_2_0: true,
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [rsa.jwk] },
    });
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const assertion = await new SignJWT({ jti: randomUUID() })
      .setProtectedHeader({ alg: 'RS256', kid: rsa.jwk.kid })
      .setIssuer(rsaClient.client_id)
      .setSubject(rsaClient.client_id)
      .setAudience(issuer)
      .setExpirationTime(now + 60)
      .sign(rsa.privateKey);
    const res = await t.request('POST', '/oauth/par', {
      body: new URLSearchParams({
        ...authorizationParams(rsaClient.client_id, pkce().challenge),
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: assertion,
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(res.status, 401);
    assert.equal(res.body.error, 'invalid_client');
  });

  test('registration: a FAPI client authenticates by key and signs nothing RS256', async () => {
    const register = (body: Record<string, unknown>) =>
      adminRequest(t, 'POST', '/clients', {
        client_name: 'Bank',
        redirect_uris: ['https://rp.example/cb'],
        fapi_2_0: true,
        ...body,
      });
    assert.match((await register({})).body.error_description, /private_key_jwt/);
    const keyed = { token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [key.jwk] } };
    for (const field of ['id_token_signed_response_alg', 'userinfo_signed_response_alg'])
      assert.match(
        (await register({ ...keyed, [field]: 'RS256' })).body.error_description,
        /cannot be RS256/,
      );
    const ok = await register({ ...keyed, id_token_signed_response_alg: 'ES256' });
    assert.equal(ok.status, 201);
    assert.equal(ok.body.fapi_2_0, true);
  });
});

describe('FAPI_PROFILE=2.0: the profile for every client', () => {
  let t: TestApp;
  let issuer: string;
  before(async () => {
    ({ t, issuer } = await listeningApp({ FAPI_PROFILE: '2.0' }));
  });
  after(() => t.close());

  test('discovery offers private_key_jwt alone and no RS256; a secret client is refused; a keyed one gets PS256', async () => {
    const meta = (await t.request('GET', '/.well-known/openid-configuration')).body;
    assert.deepEqual(meta.token_endpoint_auth_methods_supported, ['private_key_jwt']);
    assert.deepEqual(meta.id_token_signing_alg_values_supported, ['PS256', 'ES256', 'EdDSA']);
    assert.equal(meta.require_pushed_authorization_requests, true);
    const secret = (await registerClient(t)) as { client_id: string; client_secret: string };
    const refused = await t.request('POST', '/oauth/par', {
      body: new URLSearchParams({
        ...authorizationParams(secret.client_id, pkce().challenge),
        client_id: secret.client_id,
        client_secret: secret.client_secret,
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(refused.status, 401);
    assert.match(refused.body.error_description, /FAPI 2.0/);
    const key = await clientKey('EdDSA');
    const keyed = await registerClient(t, {
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [key.jwk] },
    });
    const user = await signUp(t);
    const { config, dpop } = await fapiClient(issuer, keyed.client_id, key);
    const tokens = await codeFlow(t, config, user, { par: true, dpop });
    assert.equal(
      decodeProtectedHeader(tokens.id_token as string).alg,
      'PS256',
      'RS256 registered, PS256 signed',
    );
  });
});
