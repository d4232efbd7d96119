import * as oidc from 'openid-client';
import { createTestApp, type TestApp } from './app.ts';
import { freePort } from './free-port.ts';
import { ADMIN_TOKEN, authorizeWithPin, REDIRECT } from './oauth.ts';

// openid-client 6 as the relying party of a Callsign listening on 127.0.0.1: discovery, the authorization
// request it builds, the hosted page driven over plain HTTP, and its own code exchange and checks.

/** A whole Callsign listening on a port of its own, its issuer the address it listens on. */
export async function listeningApp(
  env: Record<string, string> = {},
): Promise<{ t: TestApp; issuer: string }> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ env: { ADMIN_TOKEN, BASE_URL: issuer, ...env } });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { t, issuer };
}

/** openid-client's view of the server as this client, over plain http (the tests' loopback). */
export const discoverAs = (
  issuer: string,
  clientId: string,
  metadata: Partial<oidc.ClientMetadata> = {},
  auth: oidc.ClientAuth = oidc.None(),
) =>
  oidc.discovery(new URL(issuer), clientId, metadata, auth, {
    execute: [oidc.allowInsecureRequests],
  });

export interface FlowOptions {
  scope?: string;
  /** further authorization request parameters */
  extra?: Record<string, string>;
  /** push the request first (RFC 9126) and send only client_id and request_uri to the page */
  par?: boolean;
  /** a DPoP handle: the code is exchanged with proofs of its key */
  dpop?: oidc.DPoPHandle;
  /** sign the parameters into a request object (RFC 9101) with this key of the client's */
  jar?: CryptoKey;
}

/** The authorization request openid-client builds, as the query of the page it opens. */
export async function authorizationRequest(config: oidc.Configuration, o: FlowOptions = {}) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const params = {
    redirect_uri: REDIRECT,
    scope: o.scope ?? 'openid phone',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...o.extra,
  };
  const signed = o.jar
    ? (await oidc.buildAuthorizationUrlWithJAR(config, params, o.jar)).searchParams
    : new URLSearchParams(params);
  const url = o.par
    ? await oidc.buildAuthorizationUrlWithPAR(config, signed, { DPoP: o.dpop })
    : oidc.buildAuthorizationUrl(config, signed);
  return { url, verifier, state, nonce };
}

/**
 * The authorization code flow as openid-client runs it: its request, this user's PIN on the hosted page,
 * then its code exchange, which checks the state, the ID token (its signature, algorithm and nonce) and
 * the `iss` of the response.
 */
export async function codeFlow(
  t: TestApp,
  config: oidc.Configuration,
  user: { phone: string; pin: string },
  o: FlowOptions = {},
) {
  const { url, verifier, state, nonce } = await authorizationRequest(config, o);
  const back = await authorizeWithPin(t, Object.fromEntries(url.searchParams), user);
  return oidc.authorizationCodeGrant(
    config,
    back,
    { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce },
    undefined,
    { DPoP: o.dpop },
  );
}
