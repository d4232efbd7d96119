// The scopes a client holds for itself, and the grant that gives them (RFC 6749 §4.4).
//
// Rules it enforces:
// - `ssf.manage` lets a client manage its own Shared Signals streams. It is the client's, never a person's: an
//   authorization or device request for a person may not ask for it, and no person's token carries it.
// - Only the client_credentials grant gives a client's scope, and only to a client that authenticates: a
//   public client (token_endpoint_auth_method "none") may not register client_credentials, since anyone can
//   name it.
// - A client registers `ssf.manage` only with client_credentials among its grant types.
import { fieldError } from '../errors.ts';

export const CLIENT_CREDENTIALS_GRANT = 'client_credentials';
/** A client manages its own Shared Signals streams. */
export const SSF_MANAGE = 'ssf.manage';
/** The scopes of a client itself, granted by client_credentials only. */
export const CLIENT_SCOPES: readonly string[] = [SSF_MANAGE];

const isClientScope = (scope: string) => CLIENT_SCOPES.includes(scope);

/** The scopes of a client's registration a person's authorization may ask for. */
export const personScopesOf = (clientScope: string): string[] =>
  clientScope.split(' ').filter((s) => s && !isClientScope(s));

/** The scopes of a client's registration the client_credentials grant may give it. */
export const ownScopesOf = (clientScope: string): string[] =>
  clientScope.split(' ').filter((s) => s && isClientScope(s));

/** A registration's grant types, scopes and authentication method agree with the rules above. */
export function assertClientScopeRules(grantTypes: string[], scopes: string[], authMethod: string): void {
  const clientCredentials = grantTypes.includes(CLIENT_CREDENTIALS_GRANT);
  if (clientCredentials && authMethod === 'none')
    throw fieldError(
      'INVALID_REQUEST',
      'grant_types',
      'client_credentials needs a client that authenticates: a secret or private_key_jwt, not "none"',
    );
  const own = scopes.filter(isClientScope);
  if (own.length && !clientCredentials)
    throw fieldError(
      'INVALID_REQUEST',
      'scope',
      `${own.join(' ')} is the client's own: register it with the client_credentials grant`,
    );
}
