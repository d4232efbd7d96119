import type { FastifyReply, FastifyRequest } from 'fastify';
import { OAuthError } from '../../domain/oauth/oauth-error.ts';
import { resourceChallenge } from './challenges.ts';
import { ERROR_ANSWERS, OAUTH_ERROR_STATUS, SERVER_FAULT } from './error-answers.ts';
import { sendErrorBody } from './error-body.ts';
import { toDomainError } from './rest.ts';

// The Shared Signals endpoints' error handler: a client that does not authenticate is RFC 6749's
// invalid_client (401, with a Basic challenge), a client's access token refused is RFC 6750's (401 or 403, with
// a Bearer or DPoP challenge); the streams are resources, so the rest is answered with the
// HTTP meanings SSF 1.0 §8.1 gives (404 for a stream that is not the caller's, 429 for a verification asked too
// soon), in the `{error, error_description}` shape, never cached.

export function ssfErrorHandler(err: unknown, request: FastifyRequest, reply: FastifyReply) {
  reply.header('Cache-Control', 'no-store');
  if (err instanceof OAuthError) {
    // A call with the client's access token is a resource's: RFC 6750's statuses and challenge.
    const withToken = /^(Bearer|DPoP) /i.test(request.headers.authorization ?? '');
    const status = OAUTH_ERROR_STATUS[err.error][withToken ? 'api' : 'oauth'];
    if (err.error === 'invalid_client') reply.header('WWW-Authenticate', 'Basic realm="callsign"');
    else if (withToken && status !== 400) reply.header('WWW-Authenticate', resourceChallenge(request, err));
    return reply.status(status).send({ error: err.error, error_description: err.description });
  }
  const domain = toDomainError(err);
  const row = domain ? ERROR_ANSWERS[domain.code].admin : SERVER_FAULT;
  return sendErrorBody(request, reply, row, domain, { err, surface: 'ssf' });
}
