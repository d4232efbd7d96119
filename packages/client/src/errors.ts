import type { ServerErrorCode } from './generated/error-codes.js';

/** The error codes Callsign answers with (the API reference lists what each means), and NOT_SIGNED_IN. */
export type CallsignErrorCode =
  | ServerErrorCode
  /** a call that needs a signed-in user was made with no session (no request was sent) */
  | 'NOT_SIGNED_IN'
  // a code of a newer server, or /api/v1's lower-case codes (invalid_token, not_found, ...)
  | (string & {});

/** Callsign answered with an error: `code` says which, `details` what it knows (`field`, `challenge`, ...). */
export class CallsignError extends Error {
  override readonly name = 'CallsignError';
  constructor(
    readonly code: CallsignErrorCode,
    message: string,
    /** the HTTP status (0 when no request was sent) */
    readonly status: number,
    readonly details: Record<string, unknown> = {},
    /** the X-Request-ID of the answer, to quote to the service's operator */
    readonly requestId?: string,
  ) {
    super(message);
  }
}

/** No answer came: the network failed, or the answer was not Callsign's (a proxy's error page). */
export class CallsignNetworkError extends Error {
  override readonly name = 'CallsignNetworkError';
}
