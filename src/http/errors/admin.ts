import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode } from '../../domain/errors.ts';
import { sendErrorBody } from './error-body.ts';
import { toDomainError } from './rest.ts';

// The admin API answers errors as `{error, error_description}` (the OAuth family's shape, like /api/v1). Every
// domain code has its row, so a new code does not compile until its answer here is chosen.

type Row = [status: number, error: string];
const BAD: Row = [400, 'invalid_request'];
const UNAUTHENTICATED: Row = [401, 'invalid_token'];
const FORBIDDEN: Row = [403, 'forbidden'];
const MISSING: Row = [404, 'not_found'];
const CONFLICT: Row = [409, 'conflict'];
const TOO_MANY: Row = [429, 'too_many_requests'];
/** A failure of the service's own: logged, and answered without its details. */
const SERVER_FAULT: Row = [500, 'server_error'];

const ADMIN_ERRORS: Record<ErrorCode, Row> = {
  INVALID_REQUEST: BAD,
  INVALID_PHONE: BAD,
  INVALID_PIN: BAD,
  INVALID_HANDLE: BAD,
  INVALID_OTP: BAD,
  OTP_EXPIRED: BAD,
  INVALID_CREDENTIALS: UNAUTHENTICATED,
  INVALID_TOKEN: UNAUTHENTICATED,
  TOKEN_EXPIRED: UNAUTHENTICATED,
  INVALID_REFRESH_TOKEN: BAD,
  ACCOUNT_LOCKED: FORBIDDEN,
  FORBIDDEN: FORBIDDEN,
  NOT_FOUND: MISSING,
  PHONE_NOT_FOUND: MISSING,
  HANDLE_TAKEN: CONFLICT,
  HANDLE_RESERVED: CONFLICT,
  PHONE_EXISTS: CONFLICT,
  HANDLE_COOLDOWN: TOO_MANY,
  RATE_LIMITED: TOO_MANY,
  INTERNAL_ERROR: SERVER_FAULT,
  SERVICE_UNAVAILABLE: [503, 'temporarily_unavailable'],
  INVALID_EMAIL: BAD,
  EMAIL_TAKEN: CONFLICT,
  FILE_TOO_LARGE: BAD,
  INVALID_FILE_TYPE: BAD,
  CHALLENGE_REQUIRED: BAD,
};

export function adminErrorHandler(err: unknown, request: FastifyRequest, reply: FastifyReply) {
  const domain = toDomainError(err);
  const row = domain ? ADMIN_ERRORS[domain.code] : SERVER_FAULT;
  if (row[0] === 401) reply.header('WWW-Authenticate', 'Bearer realm="admin"');
  return sendErrorBody(request, reply, row, domain, { err, surface: 'admin', namesField: true });
}
