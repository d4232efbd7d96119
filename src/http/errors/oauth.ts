import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode } from '../../domain/errors.ts';
import { OAuthError, type OAuthErrorCode } from '../../domain/oauth/oauth-error.ts';
import { sendErrorBody } from './error-body.ts';
import { toDomainError } from './rest.ts';

// The OAuth surface's one error table (token, revocation, introspection, userinfo, JWKS, discovery): RFC
// 6749 §5.2 and RFC 6750 §3.1 bodies, `{error, error_description}`, never cached.

/** Each protocol error's status: 400 but for a client or a token that did not authenticate (and our own fault). */
const OAUTH_STATUS: Record<OAuthErrorCode, number> = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  unsupported_response_type: 400,
  invalid_scope: 400,
  access_denied: 400,
  invalid_token: 401,
  insufficient_scope: 400,
  insufficient_user_authentication: 400,
  server_error: 500,
};

const REQUEST_FAULT: [number, string] = [400, 'invalid_request'];

/**
 * A domain error met on this surface: a limit, a stopping server, or else the request's fault. Every code has
 * its row, so a new code does not compile until its answer here is chosen.
 */
const DOMAIN_ERRORS: Record<ErrorCode, [status: number, error: string]> = {
  INVALID_REQUEST: REQUEST_FAULT,
  INVALID_PHONE: REQUEST_FAULT,
  INVALID_PIN: REQUEST_FAULT,
  INVALID_HANDLE: REQUEST_FAULT,
  INVALID_OTP: REQUEST_FAULT,
  OTP_EXPIRED: REQUEST_FAULT,
  INVALID_CREDENTIALS: REQUEST_FAULT,
  INVALID_TOKEN: REQUEST_FAULT,
  TOKEN_EXPIRED: REQUEST_FAULT,
  INVALID_REFRESH_TOKEN: REQUEST_FAULT,
  ACCOUNT_LOCKED: REQUEST_FAULT,
  FORBIDDEN: REQUEST_FAULT,
  NOT_FOUND: REQUEST_FAULT,
  PHONE_NOT_FOUND: REQUEST_FAULT,
  HANDLE_TAKEN: REQUEST_FAULT,
  HANDLE_RESERVED: REQUEST_FAULT,
  PHONE_EXISTS: REQUEST_FAULT,
  HANDLE_COOLDOWN: REQUEST_FAULT,
  RATE_LIMITED: [429, 'too_many_requests'],
  INTERNAL_ERROR: [500, 'server_error'],
  SERVICE_UNAVAILABLE: [503, 'temporarily_unavailable'],
  INVALID_EMAIL: REQUEST_FAULT,
  EMAIL_TAKEN: REQUEST_FAULT,
  FILE_TOO_LARGE: REQUEST_FAULT,
  INVALID_FILE_TYPE: REQUEST_FAULT,
  CHALLENGE_REQUIRED: REQUEST_FAULT,
};
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
      .status(OAUTH_STATUS[err.error])
      .send({ error: err.error, error_description: err.description });
  }
  const domain = toDomainError(err);
  const row = domain ? DOMAIN_ERRORS[domain.code] : SERVER_FAULT;
  return sendErrorBody(request, reply, row, domain, { err, surface: 'oauth' });
}
