import type { FastifyInstance } from 'fastify';
import type { Container } from '../composition/container.ts';
import { safeEqual } from '../domain/crypto.ts';
import { DomainError } from '../domain/errors.ts';
import { bearerToken } from './plugins/bearer.ts';

/** The services these routes use. */
type Services = Pick<Container, 'config' | 'metrics'>;

/**
 * Every answer counted by route template, method and status, with its duration; GET /metrics for a
 * Prometheus scraper holding METRICS_TOKEN (without the setting there is no such route).
 */
export function metricsRoutes(app: FastifyInstance, c: Services) {
  const { metrics } = c;
  app.addHook('onResponse', async (request, reply) => {
    // Not found: one series for all unknown paths, whatever was asked for.
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpRequests.inc({ route, method: request.method, status: reply.statusCode });
    metrics.httpDuration.observe({ route, method: request.method }, reply.elapsedTime / 1000);
  });
  const token = c.config.metricsToken;
  if (!token) return;
  app.get(
    '/metrics',
    {
      schema: {
        tags: ['Operations'],
        summary: 'Prometheus metrics of the whole service (bearer METRICS_TOKEN)',
        produces: ['text/plain'],
        response: { 200: { description: 'the Prometheus text format', type: 'string' } },
        security: [{ bearer: [] }],
      },
    },
    async (request, reply) => {
      const presented = bearerToken(request);
      if (!presented || !safeEqual(presented, token))
        throw new DomainError('INVALID_TOKEN', 'send METRICS_TOKEN as "Authorization: Bearer <token>"');
      return reply.header('Content-Type', metrics.contentType).send(await metrics.text());
    },
  );
}
