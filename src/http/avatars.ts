import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../composition/container.ts';
import { binary, errorBody } from './openapi-types.ts';

/** The services these routes use. */
type Services = Pick<Container, 'avatars'>;

/** Avatars from {base_url}; the name carries the content hash, so they are cached for good. */
export function avatarRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/avatars/:name',
    {
      schema: {
        tags: ['API v1'],
        summary: 'A profile picture (WebP)',
        params: Type.Object({ name: Type.String() }),
        produces: ['image/webp'],
        response: {
          200: binary('the image'),
          404: errorBody('not_found'),
        },
      },
    },
    async (request, reply) => {
      const { name } = request.params;
      const avatar = /^[A-Za-z0-9_-]{22}(-128)?\.webp$/.test(name) ? await c.avatars.find(name) : undefined;
      if (!avatar)
        return reply
          .status(404)
          .header('Cache-Control', 'no-store')
          .send({ error: 'not_found', error_description: 'no such image' });
      return reply
        .header('Content-Type', avatar.content_type)
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .header('X-Content-Type-Options', 'nosniff')
        .send(Buffer.from(avatar.data));
    },
  );
}
