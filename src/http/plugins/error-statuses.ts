import type { ErrorCode } from '../../domain/errors.ts';

// The spec's REST error table: the one place that knows which status goes with which code.
export const REST_STATUS: Record<ErrorCode, number> = {
  INVALID_REQUEST: 400,
  INVALID_PHONE: 400,
  INVALID_PIN: 400,
  INVALID_HANDLE: 400,
  INVALID_OTP: 400,
  OTP_EXPIRED: 400,
  INVALID_CREDENTIALS: 401,
  INVALID_TOKEN: 401,
  TOKEN_EXPIRED: 401,
  INVALID_REFRESH_TOKEN: 401,
  ACCOUNT_LOCKED: 403,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  PHONE_NOT_FOUND: 404,
  HANDLE_TAKEN: 409,
  HANDLE_RESERVED: 409,
  PHONE_EXISTS: 409,
  HANDLE_COOLDOWN: 429,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
};
