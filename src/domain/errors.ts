// The domain's error codes: the REST surface's (spec "Errors") and the few more the user management of
// /api/v1 names. Domain code throws these; each surface maps them, in one table of its own, to its status and
// body (http/errors/: rest-statuses.ts, oauth.ts, api-v1.ts, admin.ts, console.ts, pages.ts).
export const ERROR_CODES = [
  'INVALID_REQUEST',
  'INVALID_PHONE',
  'INVALID_PIN',
  'INVALID_HANDLE',
  'INVALID_OTP',
  'OTP_EXPIRED',
  'INVALID_CREDENTIALS',
  'INVALID_TOKEN',
  'TOKEN_EXPIRED',
  'INVALID_REFRESH_TOKEN',
  'ACCOUNT_LOCKED',
  'FORBIDDEN',
  'NOT_FOUND',
  'PHONE_NOT_FOUND',
  'HANDLE_TAKEN',
  'HANDLE_RESERVED',
  'PHONE_EXISTS',
  'HANDLE_COOLDOWN',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  // not in the spec: a request that reaches a server as it stops
  'SERVICE_UNAVAILABLE',
  // the spec's /api/v1 user management: an e-mail address and a profile picture
  'INVALID_EMAIL',
  'EMAIL_TAKEN',
  'FILE_TOO_LARGE',
  'INVALID_FILE_TYPE',
  // the SMS defence: a send that needs a solved proof-of-work challenge (details.challenge is one)
  'CHALLENGE_REQUIRED',
  // app attestation: a send's attestation that did not hold (details.reason says why)
  'CHALLENGE_FAILED',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** `details.field` names the offending field. */
export const fieldError = (
  code: ErrorCode,
  field: string,
  message: string,
  extra: Record<string, unknown> = {},
) => new DomainError(code, message, { field, ...extra });

/** A user id that names no live account (D4: a deleted one is gone at once). */
export const noSuchUser = () => new DomainError('NOT_FOUND', 'no such user');

/** A phone and PIN that do not sign in: the same answer whether the phone has no account or the PIN is wrong. */
export const invalidCredentials = () => new DomainError('INVALID_CREDENTIALS', 'wrong phone number or PIN');
