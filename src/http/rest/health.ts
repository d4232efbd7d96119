import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';

/** D27: 200 "ok" when the database answers, 503 "degraded" when it does not; bare, without the envelope. */
export function healthRoutes(app: FastifyInstance, c: Container) {
  const options = {
    schema: { tags: ['REST'], summary: 'Service health' },
    config: { rateLimitOptional: true },
  };
  app.get('/health', options, async (_request, reply) => {
    let healthy = true;
    try {
      await Promise.race([
        c.db.query('SELECT 1'),
        new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000).unref()),
      ]);
    } catch {
      healthy = false;
    }
    return reply.status(healthy ? 200 : 503).send({
      status: healthy ? 'ok' : 'degraded',
      version: c.config.version,
      timestamp: c.clock.now().toISOString(),
    });
  });
}
