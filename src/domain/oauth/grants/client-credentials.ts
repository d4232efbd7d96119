import type { ClientRow } from '../../../storage/repositories/clients.ts';
import { CLIENT_CREDENTIALS_GRANT, ownScopesOf } from '../../clients/client-scopes.ts';
import { CLIENT_TOKEN_TTL_SECONDS, type ClientTokens } from '../client-tokens.ts';
import { OAuthError } from '../oauth-error.ts';
import type { TokenRequestContext, TokenResponse } from './access-response.ts';

/** The client_credentials grant's parameter (RFC 6749 §4.4.2): the scopes asked for, or all of the client's own. */
export interface ClientCredentialsParams {
  scopes?: string[];
}

export function clientCredentialsParameters(body: Record<string, unknown>): ClientCredentialsParams {
  const { scope } = body;
  if (scope === undefined) return {};
  if (typeof scope !== 'string') throw new OAuthError('invalid_request', 'scope must be a string');
  return { scopes: scope.split(' ').filter(Boolean) };
}

export interface ClientCredentialsGrantDeps {
  clientTokens: ClientTokens;
}

/**
 * RFC 6749 §4.4: a client's token for its own scopes (client-scopes.ts says which), to a client that
 * authenticated and registered the grant; no refresh token (§4.4.3) and no ID token, since no person signed in.
 */
export async function clientCredentialsGrant(
  d: ClientCredentialsGrantDeps,
  client: ClientRow,
  params: ClientCredentialsParams,
  context: TokenRequestContext,
): Promise<TokenResponse> {
  if (!client.grant_types.includes(CLIENT_CREDENTIALS_GRANT) || client.token_endpoint_auth_method === 'none')
    throw new OAuthError('unauthorized_client', 'this client may not use the client_credentials grant');
  const own = ownScopesOf(client.scope);
  const scopes = params.scopes ?? own;
  if (!scopes.length || scopes.some((s) => !own.includes(s)))
    throw new OAuthError(
      'invalid_scope',
      `this client may ask for: ${own.join(' ') || 'nothing of its own'}`,
    );
  const scope = [...new Set(scopes)].join(' ');
  const access_token = d.clientTokens.issue({
    clientId: client.client_id,
    scope,
    jkt: context.dpopJkt,
    fapi: context.fapi,
  });
  return {
    access_token,
    token_type: context.dpopJkt ? 'DPoP' : 'Bearer',
    expires_in: CLIENT_TOKEN_TTL_SECONDS,
    scope,
  };
}
