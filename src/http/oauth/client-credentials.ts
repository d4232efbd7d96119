import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../composition/container.ts';
import type { RateLimitName } from '../../config/rate-limits.ts';
import { addressBucket } from '../../domain/address-bucket.ts';
import type { ClientCredentials } from '../../domain/oauth/client-authentication.ts';
import { OAuthError } from '../../domain/oauth/oauth-error.ts';
import type { ClientRow } from '../../storage/repositories/clients.ts';
import { countRequest } from '../plugins/rate-limit-headers.ts';

/** The services these routes use. */
type Services = Pick<Container, 'clientAuthenticator' | 'config' | 'rateLimiter'>;

/** The client fields of a token, revocation or introspection request's form, as sent. */
export interface ClientFields {
  client_id?: unknown;
  client_secret?: unknown;
  client_assertion_type?: unknown;
  client_assertion?: unknown;
}

const malformedBasic = () => new OAuthError('invalid_client', 'malformed Basic credentials');

/** RFC 6749 §2.3.1: Basic credentials are the form-urlencoded id and secret; U+0000 is in no id or secret. */
export function clientCredentials(
  request: FastifyRequest,
  body: ClientFields | undefined,
): ClientCredentials {
  const creds: ClientCredentials = {
    clientId: typeof body?.client_id === 'string' ? body.client_id : undefined,
    clientSecret: typeof body?.client_secret === 'string' ? body.client_secret : undefined,
  };
  if (typeof body?.client_assertion === 'string')
    creds.assertion = {
      type: typeof body.client_assertion_type === 'string' ? body.client_assertion_type : undefined,
      jwt: body.client_assertion,
    };
  const header = request.headers.authorization;
  if (header?.toLowerCase().startsWith('basic ')) {
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw malformedBasic();
    try {
      creds.basic = {
        id: decodeURIComponent(decoded.slice(0, colon).replaceAll('+', ' ')),
        secret: decodeURIComponent(decoded.slice(colon + 1).replaceAll('+', ' ')),
      };
    } catch {
      throw malformedBasic();
    }
    const { id, secret } = creds.basic;
    if (!id.isWellFormed() || !secret.isWellFormed() || `${id}${secret}`.includes('\u0000'))
      throw malformedBasic();
  }
  return creds;
}

/**
 * The client a request to the token, revocation or introspection endpoint authenticates as. A failed
 * authentication counts against the caller's address (so nobody can try secrets, or spend a client's
 * limit, at will); only an authenticated request counts against the client's own limit, a public
 * client's per address, since anyone may name a public client.
 */
export async function authenticatedClient(
  c: Services,
  request: FastifyRequest<{ Body: ClientFields | undefined }>,
  reply: FastifyReply,
  clientLimit: RateLimitName,
): Promise<ClientRow> {
  let client: ClientRow;
  try {
    const endpointUrl = `${c.config.baseUrl}${request.routeOptions.url ?? ''}`;
    client = await c.clientAuthenticator.authenticate(clientCredentials(request, request.body), endpointUrl);
  } catch (err) {
    if (err instanceof OAuthError && err.error === 'invalid_client')
      await countRequest(c, reply, [['oauth_client_auth_failures_address', request.ip]]);
    throw err;
  }
  const subject =
    client.token_endpoint_auth_method === 'none'
      ? `${client.client_id} ${addressBucket(request.ip)}`
      : client.client_id;
  await countRequest(c, reply, [[clientLimit, subject]]);
  return client;
}
