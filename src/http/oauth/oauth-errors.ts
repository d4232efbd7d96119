import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { OAuthError } from '../../domain/oauth/oauth-error.ts';
import { toDomainError } from '../plugins/rest-errors.ts';

/** RFC 6749 §5.2 and RFC 6750 §3.1 bodies: `{error, error_description}`; never cached. */
export function oauthErrorHandler(err: unknown, request: FastifyRequest, reply: FastifyReply) {
  reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
  if (err instanceof OAuthError) {
    let status = 400;
    if (err.error === 'invalid_client') {
      status = 401;
      reply.header('WWW-Authenticate', 'Basic realm="callsign"');
    }
    if (err.error === 'invalid_token') {
      status = 401;
      reply.header(
        'WWW-Authenticate',
        `Bearer error="invalid_token", error_description="${err.description}"`,
      );
    }
    return reply.status(status).send({ error: err.error, error_description: err.description });
  }
  return sendOtherError(err, request, reply, 'oauth');
}

/**
 * What is not an OAuthError, in the `{error, error_description}` family (OAuth surface and /api/v1): a rate
 * limit is 429 with Retry-After, another domain error 400 invalid_request, anything else a logged 500.
 */
export function sendOtherError(err: unknown, request: FastifyRequest, reply: FastifyReply, surface: string) {
  const domain = err instanceof DomainError ? err : toDomainError(err);
  if (domain?.code === 'RATE_LIMITED') {
    reply.header('Retry-After', String(domain.details.retry_after_seconds ?? 60));
    return reply.status(429).send({ error: 'too_many_requests', error_description: domain.message });
  }
  if (domain && domain.code !== 'INTERNAL_ERROR') {
    return reply.status(400).send({ error: 'invalid_request', error_description: domain.message });
  }
  request.log.error({ err }, `${surface} request failed`);
  return reply
    .status(500)
    .send({ error: 'server_error', error_description: 'something went wrong on our side' });
}
