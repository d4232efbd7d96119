import type { FastifyReply } from 'fastify';
import type { Container } from '../../composition/container.ts';
import type { RateLimitName } from '../../config/rate-limits.ts';
import { RateLimitExceeded, type RateLimitState } from '../../domain/rate-limiter.ts';
import { unixSeconds } from '../../providers/clock.ts';

/** The services these routes use. */
type Services = Pick<Container, 'rateLimiter'>;

/** X-RateLimit-* of one limit's state. */
export function setLimitHeaders(reply: FastifyReply, state: RateLimitState) {
  reply.header('X-RateLimit-Limit', state.limit);
  reply.header('X-RateLimit-Remaining', state.remaining);
  reply.header('X-RateLimit-Reset', unixSeconds(state.resetAt));
}

/**
 * A 429's X-RateLimit-* describe the limit that refused it, also where the request was counted first against
 * another (a send refused by its block of numbers after the per-phone limit let it through).
 */
export function headersOfRefusal(reply: FastifyReply, err: unknown) {
  if (err instanceof RateLimitExceeded) setLimitHeaders(reply, err.limitState);
}

/**
 * Counts one request against these limits, puts the X-RateLimit-* headers of the one with the fewest
 * requests remaining on the answer, and throws RATE_LIMITED (with its Retry-After) when one is exceeded.
 */
export async function countRequest(
  c: Services,
  reply: FastifyReply,
  subjects: Array<[RateLimitName, string]>,
) {
  const { state, exceeded } = await c.rateLimiter.hit(subjects);
  setLimitHeaders(reply, state);
  if (exceeded) throw exceeded;
}
