import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../composition/container.ts';
import { SSF_MANAGE } from '../../domain/clients/client-scopes.ts';
import { OAuthError } from '../../domain/oauth/oauth-error.ts';
import type { ClientRow } from '../../storage/repositories/clients.ts';
import { presentedToken } from '../plugins/bearer.ts';
import { countRequest } from '../plugins/rate-limit-headers.ts';
import { authenticatedClient, type ClientFields } from './client-credentials.ts';

/** The services this uses. */
type Services = Pick<
  Container,
  'clientAuthenticator' | 'clientTokens' | 'clients' | 'config' | 'rateLimiter'
>;

/**
 * The client a Shared Signals call is for: the one whose own access token it presents (Bearer or DPoP, with the
 * `ssf.manage` scope, from the client_credentials grant), or else the one it authenticates as, as at the token
 * endpoint. Either way it counts against the client's `ssf_client` limit.
 */
export async function ssfCaller(
  c: Services,
  request: FastifyRequest,
  reply: FastifyReply,
  body?: ClientFields,
): Promise<ClientRow> {
  const presented = presentedToken(request, c.config.baseUrl);
  if (!presented) return authenticatedClient(c, request, reply, 'ssf_client', body);
  const clientId = await c.clientTokens.clientOf(presented, SSF_MANAGE);
  // A deleted client's tokens end with it.
  const client = await c.clients.findClient(clientId);
  if (!client) throw new OAuthError('invalid_token', 'the access token is invalid');
  await countRequest(c, reply, [['ssf_client', client.client_id]]);
  return client;
}
