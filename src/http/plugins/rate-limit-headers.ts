import type { FastifyReply } from 'fastify';
import type { RateLimitName } from '../../config/rate-limits.ts';
import type { Container } from '../../container.ts';
import { unixSeconds } from '../../providers/clock.ts';

/** The services these routes use. */
type Services = Pick<Container, 'rateLimiter'>;

/**
 * D28: counts one request against these limits, puts the X-RateLimit-* headers of the one with the fewest
 * requests remaining on the answer, and throws RATE_LIMITED (with its Retry-After) when one is exceeded.
 */
export async function countRequest(
  c: Services,
  reply: FastifyReply,
  subjects: Array<[RateLimitName, string]>,
) {
  const { state, exceeded } = await c.rateLimiter.hit(subjects);
  reply.header('X-RateLimit-Limit', state.limit);
  reply.header('X-RateLimit-Remaining', state.remaining);
  reply.header('X-RateLimit-Reset', unixSeconds(state.resetAt));
  if (exceeded) throw exceeded;
}
