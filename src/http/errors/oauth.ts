import type { FastifyReply, FastifyRequest } from 'fastify';
import { OAuthError } from '../../domain/oauth/oauth-error.ts';
import { resourceChallenge } from './challenges.ts';
import { ERROR_ANSWERS, OAUTH_ERROR_STATUS, SERVER_FAULT } from './error-answers.ts';
import { sendErrorBody } from './error-body.ts';
import { toDomainError } from './rest.ts';

// The OAuth surface's error handler (token, revocation, introspection, userinfo, JWKS, discovery): RFC
// 6749 §5.2 and RFC 6750 §3.1 bodies, `{error, error_description}`, never cached.

export function oauthErrorHandler(err: unknown, request: FastifyRequest, reply: FastifyReply) {
  reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
  if (err instanceof OAuthError) {
    // Userinfo and registration are resources: their refusals are RFC 6750's (and 9449's), with a challenge.
    const atResource = request.url.startsWith('/oauth/userinfo') || request.url.startsWith('/oauth/register');
    const status = OAUTH_ERROR_STATUS[err.error][atResource ? 'api' : 'oauth'];
    if (err.error === 'invalid_client') reply.header('WWW-Authenticate', 'Basic realm="callsign"');
    if (atResource && status === 401) reply.header('WWW-Authenticate', resourceChallenge(request, err));
    return reply.status(status).send({ error: err.error, error_description: err.description });
  }
  const domain = toDomainError(err);
  const row = domain ? ERROR_ANSWERS[domain.code].oauth : SERVER_FAULT;
  return sendErrorBody(request, reply, row, domain, { err, surface: 'oauth' });
}
