import type { ClientRow } from '../../../storage/repositories/clients.ts';
import type { AccessTokens } from '../../sessions/access-tokens.ts';
import type { Authentication } from '../../sessions/authentication.ts';

/** Spec "Token lifetimes": OAuth access and ID tokens live 1 hour. */
export const OAUTH_ACCESS_TOKEN_TTL_SECONDS = 3600;

/** RFC 6749 §5.1: what the token endpoint answers a grant that succeeds. */
export interface TokenResponse {
  access_token: string;
  /** RFC 9449 §5: DPoP when the access token is bound to the client's key */
  token_type: 'Bearer' | 'DPoP';
  expires_in: number;
  refresh_token?: string;
  scope: string;
  id_token?: string;
}

/** What a grant issues for a session: its access token, and its refresh token if the client may refresh. */
export interface SessionGrant {
  userId: string;
  sessionId: string;
  scope: string;
  refreshToken: string;
  /** the sign-in that started the session */
  auth: Authentication;
}

/** What the token request itself showed beside its grant. */
export interface TokenRequestContext {
  /** RFC 9449: the key of the request's DPoP proof, to which the access token is bound */
  dpopJkt?: string;
  /** the FAPI 2.0 Security Profile applies to the client (fapi-profile.ts) */
  fapi?: boolean;
}

/**
 * An access token for the session (bound to the request's DPoP key, if it proved one), and the session's
 * refresh token where the client may use one.
 */
export function accessResponse(
  tokens: AccessTokens,
  client: ClientRow,
  grant: SessionGrant,
  context: TokenRequestContext = {},
): TokenResponse {
  const access_token = tokens.issue({
    jkt: context.dpopJkt,
    fapi: context.fapi,
    sub: grant.userId,
    aud: client.client_id,
    scope: grant.scope,
    sid: grant.sessionId,
    ttlSeconds: OAUTH_ACCESS_TOKEN_TTL_SECONDS,
    auth: grant.auth,
  });
  const response: TokenResponse = {
    access_token,
    token_type: context.dpopJkt ? 'DPoP' : 'Bearer',
    expires_in: OAUTH_ACCESS_TOKEN_TTL_SECONDS,
    scope: grant.scope,
  };
  if (client.grant_types.includes('refresh_token')) response.refresh_token = grant.refreshToken;
  return response;
}
