import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../composition/container.ts';
import type { RateLimitName } from '../../config/rate-limits.ts';
import { addressBucket } from '../../domain/address-bucket.ts';
import type { ClientCredentials } from '../../domain/oauth/client-authentication.ts';
import { dpopRequiredOf } from '../../domain/oauth/client-authentication.ts';
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
  request: FastifyRequest,
  reply: FastifyReply,
  clientLimit: RateLimitName,
  /** the request's body (none on a GET: Basic credentials only) */
  body: ClientFields | undefined,
): Promise<ClientRow> {
  let client: ClientRow;
  try {
    const endpointUrl = requestUrl(c, request);
    client = await c.clientAuthenticator.authenticate(clientCredentials(request, body), endpointUrl);
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

/** The URL a client addressed this request to, as a DPoP proof's `htu` names it: BASE_URL and the path. */
const requestUrl = (c: Pick<Container, 'config'>, request: FastifyRequest) =>
  `${c.config.baseUrl}${request.url.split('?')[0]}`;

/**
 * The DPoP proof of a request to the token or PAR endpoint, checked for its method and URL: the key it
 * proves, or undefined without one. At the token endpoint, a client that registered DPoP (or the FAPI 2.0
 * profile) must send one; at PAR it may.
 */
export async function dpopOfRequest(
  c: Pick<Container, 'config' | 'dpop'>,
  request: FastifyRequest,
  client: ClientRow,
  { optional = false } = {},
): Promise<{ jkt: string } | undefined> {
  const header = request.headers.dpop;
  // RFC 9449 §4.3: one proof; two headers are refused.
  if (Array.isArray(header)) throw new OAuthError('invalid_dpop_proof', 'send one DPoP header');
  const proof = header || undefined;
  if (!proof) {
    if (!optional && dpopRequiredOf(client, c.config.oauth))
      throw new OAuthError(
        'invalid_dpop_proof',
        'this client must send a DPoP proof with every token request',
      );
    return undefined;
  }
  return c.dpop.verify(proof, { method: request.method, url: requestUrl(c, request) });
}
