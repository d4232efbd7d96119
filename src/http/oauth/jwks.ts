import type { FastifyInstance } from 'fastify';
import type { Container } from '../../composition/container.ts';
import { JWKS_MAX_AGE_SECONDS } from '../../domain/sessions/key-ring.ts';
import { Jwks, oauthAnswer } from './responses.ts';

/** The services these routes use. */
type Services = Pick<Container, 'keys'>;

/**
 * Spec "GET /.well-known/jwks.json": public keys by kid; cacheable, for less time than a rotated key is published
 * before it signs.
 */
export function jwksRoutes(app: FastifyInstance, c: Services) {
  app.get(
    '/.well-known/jwks.json',
    { schema: { tags: ['OAuth'], summary: 'Public signing keys (JWKS)', response: oauthAnswer(Jwks) } },
    async (_req, reply) =>
      reply
        .header('Cache-Control', `public, max-age=${JWKS_MAX_AGE_SECONDS}`)
        .header('Access-Control-Allow-Origin', '*') // A public document, readable from any page
        .send(c.keys.jwks()),
  );
}
