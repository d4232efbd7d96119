import type { ErrorCode } from '../../domain/errors.ts';
import type { OAuthErrorCode } from '../../domain/oauth/oauth-error.ts';

// The one error table of the surfaces that answer `{error, error_description}`: the OAuth endpoints, /api/v1
// and the admin API. Each domain code has its row and each row says every surface's answer, so a new code does
// not compile until its answer on each is chosen, and where the surfaces differ the row shows it.
// - OAuth (RFC 6749 §5.2): a limit, a stopping server, our own fault, or else the request's fault.
// - /api/v1 (the spec's list): a missing user, the profile's own checks, and otherwise the request's fault.
// - admin: the REST surface's meaning in the OAuth family's shape (unauthenticated, forbidden, conflict...).

export type ErrorAnswer = readonly [status: number, error: string];

const BAD: ErrorAnswer = [400, 'invalid_request'];
const UNAUTHENTICATED: ErrorAnswer = [401, 'invalid_token'];
const FORBIDDEN: ErrorAnswer = [403, 'forbidden'];
const MISSING: ErrorAnswer = [404, 'not_found'];
const CONFLICT: ErrorAnswer = [409, 'conflict'];
const TOO_MANY: ErrorAnswer = [429, 'too_many_requests'];
/** A failure of the service's own: logged, and answered without its details. */
export const SERVER_FAULT: ErrorAnswer = [500, 'server_error'];
const UNAVAILABLE: ErrorAnswer = [503, 'temporarily_unavailable'];

interface Answers {
  oauth: ErrorAnswer;
  api: ErrorAnswer;
  admin: ErrorAnswer;
}

/** The request's fault on OAuth and /api/v1; `admin` where the admin API says more. */
const requestFault = (admin: ErrorAnswer = BAD): Answers => ({ oauth: BAD, api: BAD, admin });
const everywhere = (answer: ErrorAnswer): Answers => ({ oauth: answer, api: answer, admin: answer });

export const ERROR_ANSWERS: Record<ErrorCode, Answers> = {
  INVALID_REQUEST: requestFault(),
  INVALID_PHONE: requestFault(),
  INVALID_PIN: requestFault(),
  INVALID_HANDLE: requestFault(),
  INVALID_OTP: requestFault(),
  OTP_EXPIRED: requestFault(),
  INVALID_CREDENTIALS: requestFault(UNAUTHENTICATED),
  INVALID_TOKEN: requestFault(UNAUTHENTICATED),
  TOKEN_EXPIRED: requestFault(UNAUTHENTICATED),
  INVALID_REFRESH_TOKEN: requestFault(),
  ACCOUNT_LOCKED: requestFault(FORBIDDEN),
  FORBIDDEN: requestFault(FORBIDDEN),
  NOT_FOUND: { oauth: BAD, api: [404, 'user_not_found'], admin: MISSING },
  PHONE_NOT_FOUND: requestFault(MISSING),
  HANDLE_TAKEN: requestFault(CONFLICT),
  HANDLE_RESERVED: requestFault(CONFLICT),
  PHONE_EXISTS: requestFault(CONFLICT),
  HANDLE_COOLDOWN: requestFault(TOO_MANY),
  RATE_LIMITED: everywhere(TOO_MANY),
  INTERNAL_ERROR: everywhere(SERVER_FAULT),
  SERVICE_UNAVAILABLE: everywhere(UNAVAILABLE),
  INVALID_EMAIL: { oauth: BAD, api: [400, 'invalid_email'], admin: BAD },
  EMAIL_TAKEN: { oauth: BAD, api: [409, 'email_taken'], admin: CONFLICT },
  FILE_TOO_LARGE: { oauth: BAD, api: [413, 'file_too_large'], admin: BAD },
  INVALID_FILE_TYPE: { oauth: BAD, api: [415, 'invalid_file_type'], admin: BAD },
  CHALLENGE_REQUIRED: requestFault(),
  CHALLENGE_FAILED: requestFault(),
};

/**
 * Each protocol error's status: at the OAuth endpoints 400 but for a client or a token that did not
 * authenticate (and our own fault); where /api/v1 checks a user token or an API key, RFC 6750 §3.1's and
 * RFC 9470's statuses.
 */
export const OAUTH_ERROR_STATUS: Record<OAuthErrorCode, { oauth: number; api: number }> = {
  invalid_request: { oauth: 400, api: 400 },
  invalid_client: { oauth: 401, api: 400 },
  invalid_grant: { oauth: 400, api: 400 },
  unauthorized_client: { oauth: 400, api: 400 },
  unsupported_grant_type: { oauth: 400, api: 400 },
  unsupported_response_type: { oauth: 400, api: 400 },
  invalid_scope: { oauth: 400, api: 400 },
  access_denied: { oauth: 400, api: 400 },
  invalid_token: { oauth: 401, api: 401 },
  insufficient_scope: { oauth: 400, api: 403 },
  insufficient_user_authentication: { oauth: 400, api: 401 },
  invalid_request_object: { oauth: 400, api: 400 },
  request_uri_not_supported: { oauth: 400, api: 400 },
  invalid_dpop_proof: { oauth: 400, api: 401 },
  use_dpop_nonce: { oauth: 400, api: 401 },
  invalid_redirect_uri: { oauth: 400, api: 400 },
  invalid_client_metadata: { oauth: 400, api: 400 },
  authorization_pending: { oauth: 400, api: 400 },
  slow_down: { oauth: 400, api: 400 },
  expired_token: { oauth: 400, api: 400 },
  server_error: { oauth: 500, api: 500 },
};
