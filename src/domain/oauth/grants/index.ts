// The token endpoint's grants, one file each (RFC 6749 §4.1.3 with RFC 7636, §4.4, §6; RFC 8628 §3.4), looked up by `grant_type`
// as node-oidc-provider does: each reads its own parameters, then handles the request.
import type { ClientRow } from '../../../storage/repositories/clients.ts';
import { DEVICE_CODE_GRANT } from '../../clients/client-rules.ts';
import { CLIENT_CREDENTIALS_GRANT } from '../../clients/client-scopes.ts';
import { OAuthError } from '../oauth-error.ts';
import type { TokenRequestContext, TokenResponse } from './access-response.ts';
import {
  type AuthorizationCodeGrantDeps,
  authorizationCodeGrant,
  authorizationCodeParameters,
} from './authorization-code.ts';
import {
  type ClientCredentialsGrantDeps,
  clientCredentialsGrant,
  clientCredentialsParameters,
} from './client-credentials.ts';
import { type DeviceCodeGrantDeps, deviceCodeGrant, deviceCodeParameters } from './device-code.ts';
import { type RefreshTokenGrantDeps, refreshTokenGrant, refreshTokenParameters } from './refresh-token.ts';

/** What every grant may use. */
export type GrantDeps = AuthorizationCodeGrantDeps &
  RefreshTokenGrantDeps &
  DeviceCodeGrantDeps &
  ClientCredentialsGrantDeps;

/** A grant: its parameters read from the request's body, and its handling of them. */
export interface Grant<P> {
  parameters(body: Record<string, unknown>): P;
  handle(d: GrantDeps, client: ClientRow, params: P, context: TokenRequestContext): Promise<TokenResponse>;
  /** both, in order */
  issue(
    d: GrantDeps,
    client: ClientRow,
    body: Record<string, unknown>,
    context: TokenRequestContext,
  ): Promise<TokenResponse>;
}

const grant = <P>(parameters: Grant<P>['parameters'], handle: Grant<P>['handle']): Grant<P> => ({
  parameters,
  handle,
  issue: (d, client, body, context) => handle(d, client, parameters(body), context),
});

export const GRANTS = {
  authorization_code: grant(authorizationCodeParameters, authorizationCodeGrant),
  refresh_token: grant(refreshTokenParameters, refreshTokenGrant),
  [DEVICE_CODE_GRANT]: grant(deviceCodeParameters, deviceCodeGrant),
  [CLIENT_CREDENTIALS_GRANT]: grant(clientCredentialsParameters, clientCredentialsGrant),
};

export type GrantType = keyof typeof GRANTS;
export const GRANT_TYPES = Object.keys(GRANTS) as GrantType[];

/** The grant a request names; invalid_request without one, unsupported_grant_type for any other. */
export function grantFor(grantType: unknown): Grant<unknown> {
  if (grantType === undefined) throw new OAuthError('invalid_request', 'grant_type is required');
  if (typeof grantType === 'string' && Object.hasOwn(GRANTS, grantType))
    return GRANTS[grantType as GrantType] as Grant<unknown>;
  throw new OAuthError('unsupported_grant_type', `grant_type must be one of ${GRANT_TYPES.join(', ')}`);
}
