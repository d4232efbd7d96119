import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_ANSWERS, SERVER_FAULT } from './error-answers.ts';
import { sendErrorBody } from './error-body.ts';
import { toDomainError } from './rest.ts';

// The admin API answers errors as `{error, error_description}` (the OAuth family's shape, like /api/v1), by the
// shared table's admin column (error-answers.ts).

export function adminErrorHandler(err: unknown, request: FastifyRequest, reply: FastifyReply) {
  const domain = toDomainError(err);
  const row = domain ? ERROR_ANSWERS[domain.code].admin : SERVER_FAULT;
  if (row[0] === 401) reply.header('WWW-Authenticate', 'Bearer realm="admin"');
  return sendErrorBody(request, reply, row, domain, { err, surface: 'admin', namesField: true });
}
