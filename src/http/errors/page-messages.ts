import type { DomainError, ErrorCode } from '../../domain/errors.ts';
import type { MessageKey } from '../../i18n/languages.ts';
import type { View } from '../pages/view.ts';

/** What went wrong with a form, in the page's language (HTML-safe), and the field it is about, if one. */
export interface FormProblem {
  message: string;
  field?: string;
  /** what is wrong with other fields of the same form, said beside each at once */
  also?: FormProblem[];
}

// The sign-in pages' one table from a domain error to what the person reads (every code has its row, so a new
// code does not compile until its words are chosen). REST answers keep their English
// messages (codes are the contract); pages say it in the person's language, beside the field it is about.
const BY_CODE: Record<ErrorCode, MessageKey> = {
  INVALID_REQUEST: 'error.check_input',
  INVALID_PHONE: 'error.phone_invalid',
  INVALID_PIN: 'error.pin_format',
  INVALID_HANDLE: 'error.handle_invalid',
  INVALID_OTP: 'error.code_wrong',
  OTP_EXPIRED: 'error.code_expired',
  INVALID_CREDENTIALS: 'error.credentials',
  INVALID_TOKEN: 'error.signup_restart',
  TOKEN_EXPIRED: 'error.check_input',
  INVALID_REFRESH_TOKEN: 'error.check_input',
  ACCOUNT_LOCKED: 'error.locked',
  FORBIDDEN: 'error.check_input',
  NOT_FOUND: 'error.check_input',
  PHONE_NOT_FOUND: 'error.no_account',
  HANDLE_TAKEN: 'error.handle_taken',
  HANDLE_RESERVED: 'error.handle_taken',
  PHONE_EXISTS: 'error.phone_exists',
  HANDLE_COOLDOWN: 'error.handle_taken',
  RATE_LIMITED: 'error.too_many',
  INTERNAL_ERROR: 'error.check_input',
  SERVICE_UNAVAILABLE: 'error.failed',
  INVALID_EMAIL: 'error.check_input',
  EMAIL_TAKEN: 'error.check_input',
  FILE_TOO_LARGE: 'error.check_input',
  INVALID_FILE_TYPE: 'error.check_input',
  CHALLENGE_REQUIRED: 'error.check_input',
  CHALLENGE_FAILED: 'error.check_input',
};

/** An INVALID_REQUEST names its field; the field says what to fix. */
const BY_FIELD: Record<string, MessageKey> = {
  name: 'error.name',
  channel: 'error.channel',
  code: 'error.code_wrong',
  phone: 'error.phone_invalid',
  confirmation: 'error.confirmation',
};

/** The fields the sign-in pages show an error beside; any other error is about the whole form. */
const PAGE_FIELDS = new Set([
  'phone',
  'pin',
  'code',
  'handle',
  'name',
  'channel',
  'recovery_code',
  'confirmation',
  'current_pin',
  'new_pin',
]);

/**
 * Too many attempts, and how long to wait (whole minutes, rounded up) where the limit says; when the limit is
 * on codes sent (nothing failed), that too many codes went and when the next can.
 */
export function tooManyMessage(v: View, retryAfterSeconds: unknown, scope?: unknown): string {
  if (typeof retryAfterSeconds !== 'number') return v.t('error.too_many');
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  if (typeof scope === 'string' && scope.startsWith('otp_send'))
    return v.t('error.too_many_codes_wait', { minutes });
  return v.t('error.too_many_wait', { minutes });
}

/**
 * A lock: the operator's (no end) says to contact the service; a PIN lock that ends, how many minutes remain
 * (whole, rounded up), and the way out by a reset.
 */
function lockedMessage(v: View, lockedUntil: unknown, now: Date | undefined): string | undefined {
  if (lockedUntil === null) return v.t('error.locked_by_operator');
  if (typeof lockedUntil !== 'string' || !now) return undefined;
  const minutes = Math.max(1, Math.ceil((Date.parse(lockedUntil) - now.getTime()) / 60_000));
  return Number.isFinite(minutes) ? v.t('error.locked_wait', { minutes }) : undefined;
}

export function formProblem(
  v: View,
  err: DomainError,
  overrides: { [code in ErrorCode]?: MessageKey } = {},
  now?: Date,
) {
  const field = typeof err.details.field === 'string' ? err.details.field : undefined;
  const locked = err.code === 'ACCOUNT_LOCKED' ? lockedMessage(v, err.details.locked_until, now) : undefined;
  if (locked) return { message: locked } satisfies FormProblem;
  if (err.code === 'RATE_LIMITED' && !overrides.RATE_LIMITED)
    return {
      message: tooManyMessage(v, err.details.retry_after_seconds, err.details.scope),
      field: field && PAGE_FIELDS.has(field) ? field : undefined,
    } satisfies FormProblem;
  // An imported account whose person has not set a PIN yet (said only where numbers are not hidden).
  if (err.code === 'INVALID_CREDENTIALS' && err.details.reason === 'pin_not_set')
    return { message: v.t('error.pin_not_set') } satisfies FormProblem;
  const key =
    overrides[err.code] ??
    (err.code === 'INVALID_REQUEST' && field ? (BY_FIELD[field] ?? BY_CODE[err.code]) : BY_CODE[err.code]);
  return {
    message: v.t(key),
    field: field && PAGE_FIELDS.has(field) ? field : undefined,
  } satisfies FormProblem;
}

/** The error shown beside this field, if the problem is about it. */
export const errorAt = (problem: FormProblem | undefined, field: string): string | undefined =>
  problem?.field === field
    ? problem.message
    : problem?.also?.map((other) => errorAt(other, field)).find((message) => message !== undefined);

/** The error shown above the form, if the problem is about no one field. */
export const errorAbove = (problem: FormProblem | undefined) =>
  problem && !problem.field ? problem.message : undefined;
