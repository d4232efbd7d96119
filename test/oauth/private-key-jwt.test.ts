import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { exportJWK, generateKeyPair, type JWK, SignJWT, UnsecuredJWT } from 'jose';
import * as oidc from 'openid-client';
import { type SignedUp, signUp, type TestApp } from '../helpers/app.ts';
import { adminRequest, registerClient } from '../helpers/oauth.ts';
import { codeFlow, discoverAs, listeningApp } from '../helpers/relying-party.ts';

const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** A key pair of the client's: the private half for its assertions, the public JWK for its registration. */
async function clientKey(alg = 'ES256', kid = randomUUID()) {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { privateKey, kid, jwk, alg };
}
type ClientKey = Awaited<ReturnType<typeof clientKey>>;

/** A JWK Set served the way a client's jwks_uri would, counting the fetches. */
class JwksServer {
  keys: JWK[] = [];
  fetches = 0;
  #server: Server = createServer((_req, res) => {
    this.fetches++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: this.keys }));
  });
  async start(): Promise<string> {
    await new Promise<void>((r) => this.#server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/jwks.json`;
  }
  close = () => new Promise((r) => this.#server.close(r));
}

describe('private_key_jwt: clients that authenticate by key (RFC 7523)', () => {
  let t: TestApp;
  let issuer: string;
  let user: SignedUp;
  let key: ClientKey;
  let client: { client_id: string; client_secret?: string };
  const jwksServer = new JwksServer();
  before(async () => {
    ({ t, issuer } = await listeningApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }));
    user = await signUp(t);
    key = await clientKey();
    client = await registerClient(t, {
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [key.jwk] },
      grant_types: ['authorization_code', 'refresh_token'],
    });
  });
  after(async () => {
    await jwksServer.close();
    await t.close();
  });

  /** An assertion of this client as a hand-made client would make it, with any claim changed. */
  const assertion = (
    k: ClientKey,
    claims: Record<string, unknown> = {},
    o: { clientId?: string; exp?: number } = {},
  ) => {
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const id = o.clientId ?? client.client_id;
    return new SignJWT({ jti: randomUUID(), ...claims })
      .setProtectedHeader({ alg: k.alg, kid: k.kid })
      .setIssuer(id)
      .setSubject(id)
      .setAudience((claims.aud as string) ?? issuer)
      .setIssuedAt(now)
      .setExpirationTime(o.exp ?? now + 60)
      .sign(k.privateKey);
  };
  /** A refresh at the token endpoint authenticated by this form. */
  const tokenWith = (form: Record<string, string>, headers: Record<string, string> = {}) =>
    t.request('POST', '/oauth/token', {
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x', ...form }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });
  const withAssertion = async (jwt: string | Promise<string>, extra: Record<string, string> = {}) =>
    tokenWith({ client_assertion_type: JWT_BEARER, client_assertion: await jwt, ...extra });

  test('registered without a secret; openid-client signs in, refreshes and introspects with its key alone', async () => {
    assert.equal(client.client_secret, undefined, 'no secret to give');
    const config = await discoverAs(issuer, client.client_id, {}, oidc.PrivateKeyJwt(key.privateKey, {}));
    const meta = config.serverMetadata();
    assert.ok(meta.token_endpoint_auth_methods_supported?.includes('private_key_jwt'));
    const tokens = await codeFlow(t, config, user);
    assert.equal(tokens.claims()?.phone_number, user.phone);
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token as string);
    assert.ok(refreshed.access_token);
    const seen = await oidc.tokenIntrospection(config, refreshed.access_token);
    assert.equal(seen.active, true);
    assert.equal(seen.sub, tokens.claims()?.sub);
  });

  test('refused: a wrong aud, an expired exp, an exp more than 5 minutes ahead, a reused jti, no jti', async () => {
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const cases: [string, Promise<string>][] = [
      ['aud', assertion(key, { aud: 'https://elsewhere.example' })],
      ['expired', assertion(key, {}, { exp: now - 60 })],
      ['too far ahead', assertion(key, {}, { exp: now + 301 + 10 })],
      ['no jti', assertion(key, { jti: undefined })],
    ];
    for (const [why, jwt] of cases) {
      const res = await withAssertion(jwt);
      assert.equal(res.status, 401, why);
      assert.equal(res.body.error, 'invalid_client', why);
    }
    // The token endpoint's own URL is an audience as good as the issuer.
    const once = await assertion(key, { aud: `${issuer}/oauth/token` });
    assert.equal(
      (await withAssertion(once)).body.error,
      'invalid_grant',
      'authenticated: the grant is refused',
    );
    const again = await withAssertion(once);
    assert.equal(again.body.error, 'invalid_client');
    assert.match(again.body.error_description, /jti was used before/);
  });

  test('one assertion sent twice at once authenticates one request', async () => {
    const jwt = await assertion(key);
    const answers = await Promise.all([withAssertion(jwt), withAssertion(jwt)]);
    assert.deepEqual(answers.map((a) => a.body.error).sort(), ['invalid_client', 'invalid_grant']);
  });

  test("refused: alg none, a MAC, another client's key, a secret; an assertion of a secret client", async () => {
    const other = await clientKey();
    await registerClient(t, { token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [other.jwk] } });
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const unsigned = new UnsecuredJWT({ jti: randomUUID() })
      .setIssuer(client.client_id)
      .setSubject(client.client_id)
      .setAudience(issuer)
      .setExpirationTime(now + 60)
      .encode();
    const mac = await new SignJWT({ jti: randomUUID() })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(client.client_id)
      .setSubject(client.client_id)
      .setAudience(issuer)
      .setExpirationTime(now + 60)
      .sign(new TextEncoder().encode('a shared secret of thirty-two bytes!'));
    for (const [why, jwt] of [
      ['none', unsigned],
      ['HS256', mac],
      ["another client's key", await assertion({ ...other, kid: key.kid })],
    ]) {
      const res = await withAssertion(jwt);
      assert.equal(res.status, 401, why);
      assert.equal(res.body.error, 'invalid_client', why);
    }
    const secret = await tokenWith({ client_id: client.client_id, client_secret: 'guess' });
    assert.equal(secret.body.error, 'invalid_client', 'a key client has no secret that works');
    const secretClient = (await registerClient(t)) as { client_id: string; client_secret: string };
    const bySecretClient = await withAssertion(assertion(key, {}, { clientId: secretClient.client_id }));
    assert.equal(bySecretClient.body.error, 'invalid_client', 'a secret client cannot sign instead');
    const both = await withAssertion(assertion(key), { client_secret: 'x' });
    assert.equal(both.body.error, 'invalid_request', 'one method per request');
    const wrongType = await tokenWith({
      client_assertion_type: 'urn:other',
      client_assertion: await assertion(key),
    });
    assert.equal(wrongType.body.error, 'invalid_request');
    const otherId = await withAssertion(assertion(key), { client_id: secretClient.client_id });
    assert.equal(otherId.body.error, 'invalid_request', 'client_id must name the asserted client');
  });

  test('jwks_uri: fetched under the outbound rules, cached, fetched again for a rotated key', async () => {
    const first = await clientKey('PS256');
    jwksServer.keys = [first.jwk];
    const uri = await jwksServer.start();
    const byUri = await registerClient(t, { token_endpoint_auth_method: 'private_key_jwt', jwks_uri: uri });
    const send = (k: ClientKey) => withAssertion(assertion(k, {}, { clientId: byUri.client_id }));
    assert.equal((await send(first)).body.error, 'invalid_grant', 'authenticated');
    assert.equal((await send(first)).body.error, 'invalid_grant');
    assert.equal(jwksServer.fetches, 1, 'the set is kept');
    // The client rotates to an EdDSA key: the unknown kid fetches the set again (at most every 10 s).
    const next = await clientKey('EdDSA');
    jwksServer.keys = [next.jwk];
    assert.equal((await send(next)).body.error, 'invalid_client', 'fetched under 10 s ago: not again');
    t.clock.advance(10);
    assert.equal((await send(next)).body.error, 'invalid_grant', 'fetched again, the new key verifies');
    assert.equal(jwksServer.fetches, 2);
    assert.equal((await send(first)).body.error, 'invalid_client', 'the old key is gone from the set');
  });

  test('registration: key clients need keys, public ones only; a secret client may move to keys', async () => {
    const register = (body: Record<string, unknown>) =>
      adminRequest(t, 'POST', '/clients', {
        client_name: 'RP',
        redirect_uris: ['https://rp.example/cb'],
        ...body,
      });
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['no keys', { token_endpoint_auth_method: 'private_key_jwt' }, /needs the client's public keys/],
      ['a private key', { jwks: { keys: [{ ...key.jwk, d: 'secret' }] } }, /public keys only/],
      ['not a set', { jwks: [key.jwk] }, /JWK Set/],
      ['both', { jwks: { keys: [key.jwk] }, jwks_uri: 'https://rp.example/jwks' }, /not both/],
      ['a jwks_uri with credentials', { jwks_uri: 'https://u:p@rp.example/jwks' }, /jwks_uri/],
    ];
    for (const [why, body, text] of cases) {
      const res = await register(body);
      assert.equal(res.status, 400, why);
      assert.match(res.body.error_description, text, why);
    }
    const secretClient = await registerClient(t);
    const moved = await adminRequest(t, 'PATCH', `/clients/${secretClient.client_id}`, {
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [key.jwk] },
    });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal(moved.body.token_endpoint_auth_method, 'private_key_jwt');
    const toPublic = await adminRequest(t, 'PATCH', `/clients/${secretClient.client_id}`, {
      token_endpoint_auth_method: 'none',
    });
    assert.equal(toPublic.status, 400);
  });
});
