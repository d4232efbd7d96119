import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode } from '../../domain/errors.ts';
import { OAuthError, type OAuthErrorCode } from '../../domain/oauth/oauth-error.ts';
import { sendErrorBody } from './error-body.ts';
import { toDomainError } from './rest.ts';

// /api/v1's one error table: every domain error and every OAuth error it can meet, to the status and
// `error` code the spec's /api/v1 list gives (`{error, error_description}` bodies).

const DOMAIN_ERRORS: Record<ErrorCode, [status: number, error: string]> = {
  INVALID_REQUEST: [400, 'invalid_request'],
  INVALID_PHONE: [400, 'invalid_request'],
  INVALID_PIN: [400, 'invalid_request'],
  INVALID_HANDLE: [400, 'invalid_request'],
  INVALID_OTP: [400, 'invalid_request'],
  OTP_EXPIRED: [400, 'invalid_request'],
  INVALID_CREDENTIALS: [400, 'invalid_request'],
  INVALID_TOKEN: [400, 'invalid_request'],
  TOKEN_EXPIRED: [400, 'invalid_request'],
  INVALID_REFRESH_TOKEN: [400, 'invalid_request'],
  ACCOUNT_LOCKED: [400, 'invalid_request'],
  FORBIDDEN: [400, 'invalid_request'],
  NOT_FOUND: [404, 'user_not_found'],
  PHONE_NOT_FOUND: [400, 'invalid_request'],
  HANDLE_TAKEN: [400, 'invalid_request'],
  HANDLE_RESERVED: [400, 'invalid_request'],
  PHONE_EXISTS: [400, 'invalid_request'],
  HANDLE_COOLDOWN: [400, 'invalid_request'],
  RATE_LIMITED: [429, 'too_many_requests'],
  INTERNAL_ERROR: [500, 'server_error'],
  SERVICE_UNAVAILABLE: [503, 'temporarily_unavailable'],
  INVALID_EMAIL: [400, 'invalid_email'],
  EMAIL_TAKEN: [409, 'email_taken'],
  FILE_TOO_LARGE: [413, 'file_too_large'],
  INVALID_FILE_TYPE: [415, 'invalid_file_type'],
  CHALLENGE_REQUIRED: [400, 'invalid_request'],
};

/** Each OAuth error's status here, where a user token or an API key is checked (RFC 6750 §3.1, RFC 9470). */
const OAUTH_STATUS: Record<OAuthErrorCode, number> = {
  invalid_request: 400,
  invalid_client: 400,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  unsupported_response_type: 400,
  invalid_scope: 400,
  access_denied: 400,
  invalid_token: 401,
  insufficient_scope: 403,
  insufficient_user_authentication: 401,
  server_error: 500,
};

/** RFC 6750 §3's challenge, with RFC 9470's step-up parameters where the error names them. */
const bearerChallenge = (err: OAuthError) =>
  [
    `Bearer error="${err.error}"`,
    `error_description="${err.description}"`,
    ...Object.entries(err.stepUp).map(([name, value]) =>
      typeof value === 'number' ? `${name}=${value}` : `${name}="${value}"`,
    ),
  ].join(', ');

export function apiErrorHandler(err: unknown, request: FastifyRequest, reply: FastifyReply) {
  if (err instanceof OAuthError) {
    const status = OAUTH_STATUS[err.error];
    if (status !== 400) reply.header('WWW-Authenticate', bearerChallenge(err));
    return reply.status(status).send({ error: err.error, error_description: err.description });
  }
  const domain = toDomainError(err);
  const row = DOMAIN_ERRORS[domain?.code ?? 'INTERNAL_ERROR'];
  return sendErrorBody(request, reply, row, domain, { err, surface: 'api' });
}
