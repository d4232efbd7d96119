import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../composition/container.ts';
import { OAuthError } from '../../domain/oauth/oauth-error.ts';
import { bearerToken, presentedToken } from '../plugins/bearer.ts';
import { countRequest } from '../plugins/rate-limit-headers.ts';

// Who calls /api/v1: a user token on the /me paths, a server API key on the others, each counted against its
// own limit once known.

/** The services these checks use. */
type Services = Pick<Container, 'clients' | 'config' | 'oauthTokens' | 'rateLimiter'>;

/** A user token's holder (a DPoP-bound one with its proof); an API key is no user (invalid_token). */
export async function holder(c: Services, request: FastifyRequest, reply: FastifyReply) {
  const presented = presentedToken(request, c.config.baseUrl);
  if (presented?.token.startsWith('csk_'))
    throw new OAuthError('invalid_token', 'a server API key cannot act as a user; send a user access token');
  const { user, scope, authTime } = await c.oauthTokens.holderOf(presented);
  await countRequest(c, reply, [['api_v1_user', user.id]]);
  return { userId: user.id, scope, user, authTime };
}
/** A live server API key; a user token is valid but not allowed here (insufficient_scope). */
export async function server(c: Services, request: FastifyRequest, reply: FastifyReply) {
  const token = bearerToken(request);
  const key = token?.startsWith('csk_') ? await c.clients.authenticateApiKey(token) : undefined;
  if (key) return countRequest(c, reply, [['api_v1_key', key.id]]);
  const presented = presentedToken(request, c.config.baseUrl);
  if (presented && !presented.token.startsWith('csk_')) {
    await c.oauthTokens.holderOf(presented);
    throw new OAuthError('insufficient_scope', 'this needs a server API key');
  }
  throw new OAuthError('invalid_token', 'send a server API key as a bearer token');
}
