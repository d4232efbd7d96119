import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode } from '../../domain/errors.ts';
import { toDomainError } from '../plugins/rest-errors.ts';

// The admin API answers errors as `{error, error_description}` (the OAuth family's shape, like /api/v1).
const ADMIN_ERRORS: Partial<Record<ErrorCode, [number, string]>> = {
  INVALID_REQUEST: [400, 'invalid_request'],
  INVALID_PHONE: [400, 'invalid_request'],
  INVALID_TOKEN: [401, 'invalid_token'],
  NOT_FOUND: [404, 'not_found'],
  SERVICE_UNAVAILABLE: [503, 'temporarily_unavailable'],
};

export function adminErrorHandler(err: unknown, request: FastifyRequest, reply: FastifyReply) {
  const domain = toDomainError(err);
  const known = domain && ADMIN_ERRORS[domain.code];
  if (!domain || !known) {
    request.log.error({ err }, 'admin request failed');
    return reply
      .status(500)
      .send({ error: 'server_error', error_description: 'something went wrong on our side' });
  }
  if (known[0] === 401) reply.header('WWW-Authenticate', 'Bearer realm="admin"');
  const field = typeof domain.details.field === 'string' ? ` (${domain.details.field})` : '';
  return reply.status(known[0]).send({ error: known[1], error_description: `${domain.message}${field}` });
}
