// Client authentication at the token, revocation and introspection endpoints (RFC 6749 §2.3).
//
// Rules:
// - A confidential client proves itself with its secret, sent either in an HTTP Basic header
//   (client_secret_basic) or as the form field client_secret (client_secret_post), whichever it
//   registered: RFC 6749 §2.3.1 says a server MUST accept Basic, and libraries use either.
// - One method per request: Basic credentials together with a client_secret field, or a client_id
//   field naming another client than the Basic header, is invalid_request.
// - A client that registered private_key_jwt proves itself with a signed assertion and nothing else
//   (client-assertion.ts checks it); no other client may send one. The assertion names its client, so
//   client_id may be left out; sent, it must name the same client.
// - A public client (registered with "none") sends only its client_id; a secret sent for it fails.
// - A client registered for DPoP (`dpop_bound_access_tokens`, or the FAPI 2.0 profile) sends a DPoP proof
//   with every token request (RFC 9449 §5.2); the token endpoint refuses one without.
// - A client under the FAPI 2.0 profile (`fapi_2_0`, or FAPI_PROFILE=2.0) authenticates by key alone.
// - Every failure before the client's own key has verified says the same "client authentication failed",
//   whether the client is unknown, the secret wrong or the method not the client's, so a caller learns
//   nothing of which clients exist.
import { decodeJwt } from 'jose';
import type { OAuthSettings } from '../../config/oauth-settings.ts';
import type { ClientRow } from '../../storage/repositories/clients.ts';
import { type ClientAssertionDeps, JWT_BEARER_ASSERTION, verifyClientAssertion } from './client-assertion.ts';
import { clientSigningAlgs } from './fapi-profile.ts';
import { OAuthError } from './oauth-error.ts';

export interface ClientCredentials {
  /** from the Authorization: Basic header (client_secret_basic) */
  basic?: { id: string; secret: string };
  /** from the form (client_secret_post, or a public client's id) */
  clientId?: string;
  clientSecret?: string;
  /** RFC 7521 §4.2: `client_assertion_type` and `client_assertion` (private_key_jwt) */
  assertion?: { type: string | undefined; jwt: string };
}

export interface ClientAuthenticationDeps {
  /** live clients only */
  findClient(clientId: string): Promise<ClientRow | undefined>;
  /** compares in constant time */
  secretMatches(client: ClientRow, secret: string): boolean;
  /** verifies a private_key_jwt assertion of the client and spends its jti; throws invalid_client */
  verifyAssertion(client: ClientRow, jwt: string): Promise<void>;
}

const FAILED = 'client authentication failed';

/** The client these credentials name, once they prove it; invalid_client (or invalid_request) otherwise. */
export async function authenticateClient(
  creds: ClientCredentials,
  d: ClientAuthenticationDeps,
): Promise<ClientRow> {
  const { basic, clientId, clientSecret, assertion } = creds;
  if (assertion) return authenticateByKey(creds, assertion, d);
  if (basic && clientId !== undefined && clientId !== basic.id)
    throw new OAuthError('invalid_request', 'client_id differs from the Basic credentials');
  if (basic && clientSecret !== undefined)
    throw new OAuthError('invalid_request', 'use one client authentication method');
  const id = basic?.id ?? clientId;
  if (!id) throw new OAuthError('invalid_client', 'client authentication is required');
  const secret = basic?.secret ?? clientSecret;
  const client = await d.findClient(id);
  if (!client || client.token_endpoint_auth_method === 'private_key_jwt')
    throw new OAuthError('invalid_client', FAILED);
  const isPublic = client.token_endpoint_auth_method === 'none';
  if (isPublic !== (secret === undefined)) throw new OAuthError('invalid_client', FAILED);
  if (!isPublic && !d.secretMatches(client, secret as string)) throw new OAuthError('invalid_client', FAILED);
  return client;
}

/** The subject of an assertion not yet verified: only to find whose keys verify it. */
function assertedClientId(jwt: string): string | undefined {
  try {
    const { sub } = decodeJwt(jwt);
    return typeof sub === 'string' && sub.length > 0 ? sub : undefined;
  } catch {
    return undefined;
  }
}

/** RFC 7523 §3 and §2.2: the client a private_key_jwt assertion names, once its key verifies it. */
async function authenticateByKey(
  creds: ClientCredentials,
  assertion: NonNullable<ClientCredentials['assertion']>,
  d: ClientAuthenticationDeps,
): Promise<ClientRow> {
  if (creds.basic || creds.clientSecret !== undefined)
    throw new OAuthError('invalid_request', 'use one client authentication method');
  if (assertion.type !== JWT_BEARER_ASSERTION)
    throw new OAuthError('invalid_request', `client_assertion_type must be ${JWT_BEARER_ASSERTION}`);
  const id = assertedClientId(assertion.jwt);
  if (!id) throw new OAuthError('invalid_client', FAILED);
  if (creds.clientId !== undefined && creds.clientId !== id)
    throw new OAuthError('invalid_request', 'client_id differs from the client assertion');
  const client = await d.findClient(id);
  if (client?.token_endpoint_auth_method !== 'private_key_jwt')
    throw new OAuthError('invalid_client', FAILED);
  await d.verifyAssertion(client, assertion.jwt);
  return client;
}

export interface ClientAuthenticatorDeps extends ClientAssertionDeps {
  /** FAPI_PROFILE=2.0: the FAPI 2.0 Security Profile for every client */
  fapiProfile: boolean;
  clients: Pick<ClientAuthenticationDeps, 'findClient' | 'secretMatches'>;
  /** BASE_URL, and the token endpoint's URL: what a client assertion's aud may name besides the URL called */
  issuer: string;
  tokenEndpoint: string;
}

/** Client authentication at the endpoints that take it (token, revocation, introspection, PAR). */
export class ClientAuthenticator {
  constructor(private readonly d: ClientAuthenticatorDeps) {}

  /** The client these credentials, sent to the endpoint at `endpointUrl`, prove. */
  async authenticate(creds: ClientCredentials, endpointUrl: string): Promise<ClientRow> {
    const audiences = [...new Set([this.d.issuer, this.d.tokenEndpoint, endpointUrl])];
    const client = await authenticateClient(creds, {
      findClient: (id) => this.d.clients.findClient(id),
      secretMatches: (client, secret) => this.d.clients.secretMatches(client, secret),
      verifyAssertion: (client, jwt) =>
        verifyClientAssertion(this.d, client, jwt, {
          audiences,
          algorithms: clientSigningAlgs(fapiApplies(client, this.d)),
        }),
    });
    assertFapiAuthentication(client, this.d);
    return client;
  }
}

/** Whether the client's tokens must be DPoP-bound: it registered so (RFC 9449 §5.2), or FAPI 2.0 applies. */
export const dpopRequiredOf = (
  client: Pick<ClientRow, 'dpop_bound_access_tokens' | 'fapi_2_0'>,
  settings: FapiSetting,
) => client.dpop_bound_access_tokens || fapiApplies(client, settings);

export type FapiSetting = Pick<OAuthSettings, 'fapiProfile'>;

/** Whether the profile applies to this client. */
export const fapiApplies = (client: Pick<ClientRow, 'fapi_2_0'>, settings: FapiSetting) =>
  client.fapi_2_0 || settings.fapiProfile;

/** A client under the profile authenticates by key alone. */
export function assertFapiAuthentication(client: ClientRow, settings: FapiSetting): void {
  if (fapiApplies(client, settings) && client.token_endpoint_auth_method !== 'private_key_jwt')
    throw new OAuthError('invalid_client', 'FAPI 2.0: this client must authenticate with private_key_jwt');
}
