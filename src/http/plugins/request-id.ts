import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { activeTraceId } from '../../observability/tracing.ts';

/**
 * X-Request-ID: taken when it is a plausible id (never anything that could forge a log line), else the
 * request's trace id where traces are on, else made.
 */
export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  if (typeof given === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(given)) return given;
  return activeTraceId() ?? randomUUID();
}
