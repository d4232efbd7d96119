import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode } from '../../domain/errors.ts';
import { OAuthError, type OAuthErrorCode } from '../../domain/oauth/oauth-error.ts';
import { sendErrorBody } from '../plugins/error-body.ts';
import { toDomainError } from '../plugins/rest-errors.ts';

// The OAuth surface's one error table (token, revocation, introspection, userinfo, JWKS, discovery): RFC
// 6749 §5.2 and RFC 6750 §3.1 bodies, `{error, error_description}`, never cached.

/** The protocol's errors that are not 400. */
const OAUTH_STATUS: Partial<Record<OAuthErrorCode, number>> = {
  invalid_client: 401,
  invalid_token: 401,
};

/** A domain error met on this surface: a limit, a stopping server, or the request's fault. */
const DOMAIN_ERRORS: Partial<Record<ErrorCode, [status: number, error: string]>> = {
  RATE_LIMITED: [429, 'too_many_requests'],
  INTERNAL_ERROR: [500, 'server_error'],
  SERVICE_UNAVAILABLE: [503, 'temporarily_unavailable'],
};
const REQUEST_FAULT: [number, string] = [400, 'invalid_request'];
const SERVER_FAULT: [number, string] = [500, 'server_error'];

export function oauthErrorHandler(err: unknown, request: FastifyRequest, reply: FastifyReply) {
  reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
  if (err instanceof OAuthError) {
    if (err.error === 'invalid_client') reply.header('WWW-Authenticate', 'Basic realm="callsign"');
    if (err.error === 'invalid_token')
      reply.header(
        'WWW-Authenticate',
        `Bearer error="invalid_token", error_description="${err.description}"`,
      );
    return reply
      .status(OAUTH_STATUS[err.error] ?? 400)
      .send({ error: err.error, error_description: err.description });
  }
  const domain = toDomainError(err);
  const row = domain ? (DOMAIN_ERRORS[domain.code] ?? REQUEST_FAULT) : SERVER_FAULT;
  return sendErrorBody(request, reply, row, domain, { err, surface: 'oauth' });
}
