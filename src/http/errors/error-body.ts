import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DomainError } from '../../domain/errors.ts';
import { headersOfRefusal } from '../plugins/rate-limit-headers.ts';

/**
 * The `{error, error_description}` answer of a domain error on the OAuth-style surfaces, once their table has
 * given its status and code: a stopping server's 503 says so; another 5xx is logged and says nothing more; a
 * rate limit carries Retry-After; the rest carry the domain's message (with the field it names, where the
 * surface says so).
 */
export function sendErrorBody(
  request: FastifyRequest,
  reply: FastifyReply,
  [status, error]: readonly [number, string],
  domain: DomainError | undefined,
  failure: { err: unknown; surface: string; namesField?: boolean },
) {
  if (status === 503) {
    const wait = domain?.details.retry_after_seconds;
    if (typeof wait === 'number') reply.header('Retry-After', String(wait));
    return reply.status(503).send({ error, error_description: domain?.message });
  }
  if (status >= 500) {
    request.log.error({ err: failure.err }, `${failure.surface} request failed`);
    return reply.status(status).send({ error, error_description: 'something went wrong on our side' });
  }
  if (status === 429) {
    reply.header('Retry-After', String(domain?.details.retry_after_seconds ?? 60));
    headersOfRefusal(reply, domain);
  }
  const field =
    failure.namesField && typeof domain?.details.field === 'string' ? ` (${domain.details.field})` : '';
  return reply.status(status).send({ error, error_description: `${domain?.message}${field}` });
}
