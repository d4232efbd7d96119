import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';

/** The services these routes use. */
type Services = Pick<Container, 'clock' | 'config' | 'db' | 'redis'>;

/**
 * 200 "ok" when the database answers, 503 "degraded" when it does not; bare, without the envelope.
 * Where Redis holds the rate counters, it must answer too: without it every other REST answer is a 500,
 * and a load balancer should take the instance out.
 */
const CHECK_DEADLINE_MS = 800;

/** `{status, version, timestamp}`, bare: a load balancer reads it. */
const HEALTH = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['ok', 'degraded'] },
    version: { type: 'string' },
    timestamp: { type: 'string', format: 'date-time' },
  },
  required: ['status', 'version', 'timestamp'],
};

export function healthRoutes(app: FastifyInstance, c: Services) {
  const options = {
    schema: {
      tags: ['REST'],
      summary: 'Service health',
      response: {
        200: { description: 'the database (and Redis, where set) answer', ...HEALTH },
        503: { description: 'a store does not answer: take the instance out', ...HEALTH },
      },
    },
    config: { rateLimitOptional: true },
  };
  // The stores are checked at once, each given CHECK_DEADLINE_MS: with the rate count's own short wait, an
  // answer within a second whatever is down, before a probe's usual timeout.
  const answers = (check: Promise<unknown>) =>
    Promise.race([
      check,
      new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), CHECK_DEADLINE_MS).unref()),
    ]).then(
      () => true,
      () => false,
    );
  app.get('/health', options, async (_request, reply) => {
    const checks = await Promise.all([
      answers(c.db.query('SELECT 1')),
      ...(c.redis ? [answers(c.redis.ping())] : []),
    ]);
    const healthy = checks.every(Boolean);
    return reply.status(healthy ? 200 : 503).send({
      status: healthy ? 'ok' : 'degraded',
      version: c.config.version,
      timestamp: c.clock.now().toISOString(),
    });
  });
}
