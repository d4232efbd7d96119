import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type ErrorCode } from '../../domain/errors.ts';
import { headersOfRefusal } from '../plugins/rate-limit-headers.ts';
import { REST_STATUS } from './rest-statuses.ts';
import { unavailableOf } from './unavailable.ts';

interface AjvError {
  instancePath: string;
  keyword: string;
  params: { missingProperty?: string };
  message?: string;
}

/** Fastify's own errors (parsing, content type, size, schema) become INVALID_REQUEST with the field named. */
export function toDomainError(err: unknown): DomainError | undefined {
  if (err instanceof DomainError) return err;
  const unavailable = unavailableOf(err);
  if (unavailable) return unavailable;
  const e = err as FastifyError & { validation?: AjvError[] };
  if (e.validation?.length) {
    const v = e.validation[0];
    const field = v.params.missingProperty ?? v.instancePath.replace(/^\//, '').replaceAll('/', '.');
    const message = v.params.missingProperty
      ? `${field} is required`
      : `${field || 'body'} ${v.message ?? 'is invalid'}`;
    return new DomainError('INVALID_REQUEST', message, field ? { field } : {});
  }
  const known: Record<string, string> = {
    FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported Content-Type; send application/json',
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body',
    FST_ERR_CTP_BODY_TOO_LARGE: 'request body is too large',
    FST_ERR_CTP_EMPTY_JSON_BODY: 'request body is empty; send a JSON object',
    FST_ERR_CTP_INVALID_JSON_BODY: 'request body is not valid JSON',
  };
  if (e.code && known[e.code]) return new DomainError('INVALID_REQUEST', known[e.code]);
  if (e instanceof SyntaxError || (e.statusCode && e.statusCode >= 400 && e.statusCode < 500)) {
    return new DomainError('INVALID_REQUEST', e.statusCode === 404 ? 'not found' : 'malformed request');
  }
  return undefined;
}

export function sendRestError(
  reply: FastifyReply,
  code: ErrorCode,
  message: string,
  details: Record<string, unknown>,
) {
  if (code === 'INVALID_TOKEN' || code === 'TOKEN_EXPIRED') {
    reply.header('WWW-Authenticate', `Bearer error="invalid_token"`);
  }
  if (typeof details.retry_after_seconds === 'number')
    reply.header('Retry-After', String(details.retry_after_seconds));
  const { retry_after_seconds: _, cause: __, ...shown } = details;
  return reply.status(REST_STATUS[code]).send({ success: false, error: { code, message, details: shown } });
}

/** The error envelope, in one place (spec "Errors"; D26). Never a bare 500: unknown failures are logged and hidden. */
export function restErrorHandler(err: unknown, request: FastifyRequest, reply: FastifyReply) {
  const domain = toDomainError(err);
  if (!domain || domain.code === 'INTERNAL_ERROR') {
    request.log.error({ err }, 'request failed');
    const message = domain?.message ?? 'something went wrong on our side; try again later';
    return sendRestError(reply, 'INTERNAL_ERROR', message, {});
  }
  headersOfRefusal(reply, domain);
  return sendRestError(reply, domain.code, domain.message, domain.details);
}
