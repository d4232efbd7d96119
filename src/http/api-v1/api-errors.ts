import type { FastifyReply, FastifyRequest } from 'fastify';
import { OAuthError, type OAuthErrorCode } from '../../domain/oauth/oauth-error.ts';
import { sendOtherError } from '../oauth/oauth-errors.ts';

/** D21: `{error, error_description}` with these statuses. */
const STATUS: Partial<Record<OAuthErrorCode, number>> = {
  invalid_request: 400,
  invalid_email: 400,
  invalid_token: 401,
  insufficient_scope: 403,
  user_not_found: 404,
  email_taken: 409,
  file_too_large: 413,
  invalid_file_type: 415,
};

export function apiErrorHandler(err: unknown, request: FastifyRequest, reply: FastifyReply) {
  if (err instanceof OAuthError && STATUS[err.error]) {
    if (err.error === 'invalid_token' || err.error === 'insufficient_scope') {
      reply.header('WWW-Authenticate', `Bearer error="${err.error}", error_description="${err.description}"`);
    }
    return reply
      .status(STATUS[err.error] as number)
      .send({ error: err.error, error_description: err.description });
  }
  return sendOtherError(err, request, reply, 'api');
}
