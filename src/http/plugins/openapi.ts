import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';

/** The OpenAPI 3 document is generated from the route schemas; /docs renders it. */
export async function registerOpenApi(app: FastifyInstance, c: Container) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Callsign', version: c.config.version, description: 'Phone-number identity provider' },
      servers: [{ url: c.config.baseUrl }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
