import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { sendRestError } from './rest.ts';

/**
 * No path parameter is cut off by the router. Node refuses a request line and headers over 16 KiB
 * (http's maxHeaderSize), so no parameter can be longer; the route's own rules then answer an id too long to
 * exist as they answer any unknown id, in their surface's format. Fastify's default of 100 answered 414 in
 * Fastify's own JSON instead, on every surface. (Its limit guards regular-expression parameters; we have none.)
 */
export const MAX_PARAM_LENGTH = 16 * 1024;

/** The surfaces whose errors are `{error, error_description}`; the rest answer in the envelope. */
const OAUTH_STYLE_PREFIXES = ['/api/v1/', '/admin/v1/'];

/**
 * What the router refuses before any surface has the request: a path parameter whose percent-encoding
 * does not decode (FST_ERR_BAD_URL). Answered in the format of the surface the path belongs to, as
 * INVALID_REQUEST, not in Fastify's own JSON.
 */
export function answerFrameworkError(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const message = `the path is not valid percent-encoding (${err.code})`;
  if (OAUTH_STYLE_PREFIXES.some((p) => request.url.startsWith(p)))
    return reply.status(400).send({ error: 'invalid_request', error_description: message });
  return sendRestError(reply, 'INVALID_REQUEST', message, {});
}
