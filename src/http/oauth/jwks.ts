import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';

/** Spec "GET /.well-known/jwks.json": public keys by kid; cacheable, but short enough to pick up a rotation. */
export function jwksRoutes(app: FastifyInstance, c: Container) {
  app.get(
    '/.well-known/jwks.json',
    { schema: { tags: ['OAuth'], summary: 'Public signing keys (JWKS)' } },
    async (_req, reply) =>
      reply
        .header('Cache-Control', 'public, max-age=300')
        .header('Access-Control-Allow-Origin', '*') // P67: a public document, readable from any page
        .send(c.keys.jwks()),
  );
}
