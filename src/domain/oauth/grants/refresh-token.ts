import type { ClientRow } from '../../../storage/repositories/clients.ts';
import { DomainError } from '../../errors.ts';
import type { AccessTokens } from '../../sessions/access-tokens.ts';
import type { SessionService } from '../../sessions/sessions.ts';
import { OAuthError } from '../oauth-error.ts';
import { accessResponse, type TokenRequestContext, type TokenResponse } from './access-response.ts';

/** The refresh_token grant's parameters (RFC 6749 §6). */
export interface RefreshTokenParams {
  refreshToken: string;
}

export function refreshTokenParameters(body: Record<string, unknown>): RefreshTokenParams {
  if (typeof body.refresh_token !== 'string')
    throw new OAuthError('invalid_request', 'refresh_token is required');
  return { refreshToken: body.refresh_token };
}

export interface RefreshTokenGrantDeps {
  sessions: SessionService;
  tokens: AccessTokens;
}

/**
 * RFC 6749 §6: a new access token for the session of a refresh token, bound to the client that holds it; the
 * refresh token rotates on every use, and an old one presented again ends the session. A public client's
 * session bound to a DPoP key refreshes only with a proof of that key (RFC 9449 §5).
 */
export async function refreshTokenGrant(
  d: RefreshTokenGrantDeps,
  client: ClientRow,
  params: RefreshTokenParams,
  context: TokenRequestContext,
): Promise<TokenResponse> {
  if (!client.grant_types.includes('refresh_token'))
    throw new OAuthError('unauthorized_client', 'this client may not use refresh tokens');
  let rotated: Awaited<ReturnType<SessionService['rotate']>>;
  try {
    rotated = await d.sessions.rotate(params.refreshToken, client.client_id, context.dpopJkt ?? null);
  } catch (err) {
    // Only a refresh token that does not rotate is the grant's fault; a limit or a stopping server is not.
    if (err instanceof DomainError && err.code === 'INVALID_REFRESH_TOKEN')
      throw new OAuthError('invalid_grant', 'the refresh token is invalid, expired or revoked');
    throw err;
  }
  return accessResponse(d.tokens, client, rotated, context);
}
