import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** X-Request-ID: taken when it is a plausible id (never anything that could forge a log line), else made. */
export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(given) ? given : randomUUID();
}
