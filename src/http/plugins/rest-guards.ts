import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../composition/container.ts';
import type { RateLimitName } from '../../config/rate-limits.ts';
import { DomainError } from '../../domain/errors.ts';
import { phoneKey } from '../rest/phone-key.ts';
import type { AuthContext } from '../types.ts';
import { bearerToken } from './bearer.ts';
import { countRequest } from './rate-limit-headers.ts';

/** The services these routes use. */
type Services = Pick<Container, 'config' | 'defence' | 'rateLimiter' | 'sessions' | 'tokens'>;

/** Bearer access token of the REST surface: ours, first-party audience, and of a live session. */
export async function authenticate(c: Services, request: FastifyRequest): Promise<AuthContext> {
  const token = bearerToken(request);
  if (!token)
    throw new DomainError('INVALID_TOKEN', 'send the access token as "Authorization: Bearer <token>"');
  const claims = await c.tokens.verify(token, c.config.firstPartyClientId);
  if (!(await c.sessions.isActive(claims.sid)))
    throw new DomainError('INVALID_TOKEN', 'the session of this token has ended');
  return { userId: claims.sub, sessionId: claims.sid, clientId: claims.aud, scope: claims.scope };
}

/** "all other REST endpoints": 100 a minute per user when authenticated, else per address. */
export const restLimits = (request: FastifyRequest): Array<[RateLimitName, string]> =>
  request.auth ? [['rest_user', request.auth.userId]] : [['rest_address', request.ip]];

/**
 * How long a route whose limit is optional (health) waits for its count: a counter store that hangs must not
 * hold up the answer that reports it down.
 */
const OPTIONAL_COUNT_WAIT_MS = 100;

/** The count, or nothing once OPTIONAL_COUNT_WAIT_MS has passed; a late answer is dropped. */
function optionalCount(counted: Promise<void>): Promise<void> {
  counted.catch(() => {}); // a late refusal or failure has no one left to answer
  return Promise.race([
    counted,
    new Promise<void>((resolve) => setTimeout(resolve, OPTIONAL_COUNT_WAIT_MS).unref()),
  ]);
}

/**
 * Runs before validation on every REST route: authenticates where the route asks for it, then counts the
 * request against its limits and sets X-RateLimit-* on the answer, whatever the outcome. A request whose
 * credentials fail counts only against its address: the route's own limits (a phone number's codes among
 * them) are spent by authenticated callers alone, so nobody can use up a stranger's quota without a token.
 */
export function registerRestGuards(app: FastifyInstance, c: Services) {
  app.addHook('preValidation', async (request: FastifyRequest, reply: FastifyReply) => {
    // A browser's preflight is not a request of its own: it carries no credentials and counts against nothing.
    if (request.method === 'OPTIONS') return;
    const config = request.routeOptions.config;
    let authError: unknown;
    if (config.auth) {
      try {
        request.auth = await authenticate(c, request);
      } catch (err) {
        authError = err;
      }
    }
    const ownLimits = !authError;
    const subjects = ownLimits && config.rateLimit ? config.rateLimit(request) : restLimits(request);
    const counted = countRequest(c, reply, subjects);
    try {
      await (config.rateLimitOptional ? optionalCount(counted) : counted);
    } catch (err) {
      // Without its counters a limit cannot be enforced: fail closed, except where the route says otherwise.
      if (!(err instanceof DomainError && err.code === 'RATE_LIMITED') && config.rateLimitOptional) return;
      // A code's send refused by a limit on codes is counted for the operators; the refusal stands either way.
      await c.defence
        .rateLimited(err, phoneKey(request))
        .catch((failed: unknown) => request.log.warn({ err: failed }, 'a refused send was not counted'));
      throw err;
    }
    if (authError) throw authError;
  });
}
