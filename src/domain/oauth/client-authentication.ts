// Client authentication at the token, revocation and introspection endpoints (RFC 6749 §2.3).
//
// Rules:
// - A confidential client proves itself with its secret, sent either in an HTTP Basic header
//   (client_secret_basic) or as the form field client_secret (client_secret_post), whichever it
//   registered: RFC 6749 §2.3.1 says a server MUST accept Basic, and libraries use either.
// - One method per request: Basic credentials together with a client_secret field, or a client_id
//   field naming another client than the Basic header, is invalid_request.
// - A public client (registered with "none") sends only its client_id; a secret sent for it fails.
// - Every failure says the same "client authentication failed", whether the client is unknown, the
//   secret wrong or the method not the client's, so a caller learns nothing of which clients exist.
import type { ClientRow } from '../../storage/repositories/clients.ts';
import { OAuthError } from './oauth-error.ts';

export interface ClientCredentials {
  /** from the Authorization: Basic header (client_secret_basic) */
  basic?: { id: string; secret: string };
  /** from the form (client_secret_post, or a public client's id) */
  clientId?: string;
  clientSecret?: string;
}

export interface ClientAuthenticationDeps {
  /** live clients only */
  findClient(clientId: string): Promise<ClientRow | undefined>;
  /** compares in constant time */
  secretMatches(client: ClientRow, secret: string): boolean;
}

const FAILED = 'client authentication failed';

/** The client these credentials name, once they prove it; invalid_client (or invalid_request) otherwise. */
export async function authenticateClient(
  creds: ClientCredentials,
  d: ClientAuthenticationDeps,
): Promise<ClientRow> {
  const { basic, clientId, clientSecret } = creds;
  if (basic && clientId !== undefined && clientId !== basic.id)
    throw new OAuthError('invalid_request', 'client_id differs from the Basic credentials');
  if (basic && clientSecret !== undefined)
    throw new OAuthError('invalid_request', 'use one client authentication method');
  const id = basic?.id ?? clientId;
  if (!id) throw new OAuthError('invalid_client', 'client authentication is required');
  const secret = basic?.secret ?? clientSecret;
  const client = await d.findClient(id);
  if (!client) throw new OAuthError('invalid_client', FAILED);
  const isPublic = client.token_endpoint_auth_method === 'none';
  if (isPublic !== (secret === undefined)) throw new OAuthError('invalid_client', FAILED);
  if (!isPublic && !d.secretMatches(client, secret as string)) throw new OAuthError('invalid_client', FAILED);
  return client;
}
