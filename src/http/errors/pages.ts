import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type ErrorCode } from '../../domain/errors.ts';
import type { MessageKey } from '../../i18n/languages.ts';
import { headersOfRefusal } from '../plugins/rate-limit-headers.ts';
import { unavailableOf } from './unavailable.ts';

// The hosted pages' one error table: whatever goes wrong, the user sees a page of the surface's own, in their
// language, never a JSON body or a stack. A page's own refusal (PageError) shows its message with its status;
// a rate limit is 429, a stopping server 503; Fastify's refusals of a request (a malformed form or schema, a
// content type other than a form's, too large a body) are the client's error, with their status; anything
// else is logged and a 500.

/** A refusal of the page's own, shown as its error page with this status and message. */
export class PageError extends Error {
  constructor(
    readonly status: number,
    readonly key: MessageKey,
  ) {
    super(key);
  }
}

/** The pages a surface shows for each kind of error, in the request's language. */
export interface ErrorPages {
  /** a page's own refusal, with its message */
  refused(key: MessageKey): string;
  /** too many requests; the seconds to wait where the limit says */
  tooMany(retryAfterSeconds?: number): string;
  malformed: string;
  failed: string;
  /** the server is stopping */
  stopping: string;
}

/**
 * The page each domain error reaching a hosted surface's handler gets: a limit, a stopping server, or else a
 * failure of ours (a route shows the errors a person can fix beside their fields, before this handler).
 * Every code has its row, so a new code does not compile until its page is chosen.
 */
const PAGE_OF: Record<ErrorCode, 'tooMany' | 'stopping' | 'failed'> = {
  INVALID_REQUEST: 'failed',
  INVALID_PHONE: 'failed',
  INVALID_PIN: 'failed',
  INVALID_HANDLE: 'failed',
  INVALID_OTP: 'failed',
  OTP_EXPIRED: 'failed',
  INVALID_CREDENTIALS: 'failed',
  INVALID_TOKEN: 'failed',
  TOKEN_EXPIRED: 'failed',
  INVALID_REFRESH_TOKEN: 'failed',
  ACCOUNT_LOCKED: 'failed',
  FORBIDDEN: 'failed',
  NOT_FOUND: 'failed',
  PHONE_NOT_FOUND: 'failed',
  HANDLE_TAKEN: 'failed',
  HANDLE_RESERVED: 'failed',
  PHONE_EXISTS: 'failed',
  HANDLE_COOLDOWN: 'failed',
  RATE_LIMITED: 'tooMany',
  INTERNAL_ERROR: 'failed',
  SERVICE_UNAVAILABLE: 'stopping',
  INVALID_EMAIL: 'failed',
  EMAIL_TAKEN: 'failed',
  FILE_TOO_LARGE: 'failed',
  INVALID_FILE_TYPE: 'failed',
  CHALLENGE_REQUIRED: 'failed',
  CHALLENGE_FAILED: 'failed',
};

/** The error handler of a hosted surface: `send` writes a page, `what` names the surface in the log. */
export function pageErrorHandler(
  send: (reply: FastifyReply, status: number, html: string) => unknown,
  pagesFor: (request: FastifyRequest) => ErrorPages,
  what: string,
) {
  return (err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const pages = pagesFor(request);
    if (err instanceof PageError) return send(reply, err.status, pages.refused(err.key));
    const unavailable = unavailableOf(err);
    if (unavailable) {
      reply.header('Retry-After', String(unavailable.details.retry_after_seconds));
      return send(reply, 503, pages.stopping);
    }
    const page = err instanceof DomainError ? PAGE_OF[err.code] : undefined;
    if (err instanceof DomainError && page === 'tooMany') {
      const wait = err.details.retry_after_seconds;
      headersOfRefusal(reply, err);
      if (typeof wait === 'number') reply.header('Retry-After', String(wait));
      return send(reply, 429, pages.tooMany(typeof wait === 'number' ? wait : undefined));
    }
    if (page === 'stopping') return send(reply, 503, pages.stopping);
    const status = (err as { statusCode?: number }).statusCode ?? 500;
    if (status >= 400 && status < 500) return send(reply, status, pages.malformed);
    request.log.error({ err }, `${what} failed`);
    return send(reply, 500, pages.failed);
  };
}
