import type { FastifyRequest } from 'fastify';
import { OAuthError } from '../../domain/oauth/oauth-error.ts';
import type { ClientCredentials } from '../../domain/oauth/token-endpoint.ts';

/** RFC 6749 §2.3.1: Basic credentials are the form-urlencoded id and secret. */
export function clientCredentials(request: FastifyRequest): ClientCredentials {
  const body = (request.body ?? {}) as Record<string, unknown>;
  const creds: ClientCredentials = {
    clientId: typeof body.client_id === 'string' ? body.client_id : undefined,
    clientSecret: typeof body.client_secret === 'string' ? body.client_secret : undefined,
  };
  const header = request.headers.authorization;
  if (header?.toLowerCase().startsWith('basic ')) {
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new OAuthError('invalid_client', 'malformed Basic credentials');
    try {
      creds.basic = {
        id: decodeURIComponent(decoded.slice(0, colon).replaceAll('+', ' ')),
        secret: decodeURIComponent(decoded.slice(colon + 1).replaceAll('+', ' ')),
      };
    } catch {
      throw new OAuthError('invalid_client', 'malformed Basic credentials');
    }
  }
  return creds;
}

/** What a per-client limit counts against (D28): the client the request names, or its address if none. */
export const limitedClient = (creds: ClientCredentials, request: FastifyRequest) =>
  creds.basic?.id ?? creds.clientId ?? request.ip;
