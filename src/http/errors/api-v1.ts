import type { FastifyReply, FastifyRequest } from 'fastify';
import { OAuthError } from '../../domain/oauth/oauth-error.ts';
import { resourceChallenge } from './challenges.ts';
import { ERROR_ANSWERS, OAUTH_ERROR_STATUS } from './error-answers.ts';
import { sendErrorBody } from './error-body.ts';
import { toDomainError } from './rest.ts';

// /api/v1's error handler: every domain error and every OAuth error it can meet, to the status and `error`
// code the spec's /api/v1 list gives (`{error, error_description}` bodies; the table is error-answers.ts).

export function apiErrorHandler(err: unknown, request: FastifyRequest, reply: FastifyReply) {
  if (err instanceof OAuthError) {
    const status = OAUTH_ERROR_STATUS[err.error].api;
    if (status !== 400) reply.header('WWW-Authenticate', resourceChallenge(request, err));
    return reply.status(status).send({ error: err.error, error_description: err.description });
  }
  const domain = toDomainError(err);
  const row = ERROR_ANSWERS[domain?.code ?? 'INTERNAL_ERROR'].api;
  return sendErrorBody(request, reply, row, domain, { err, surface: 'api' });
}
