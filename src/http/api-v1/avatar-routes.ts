import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Container } from '../../composition/container.ts';
import { DomainError } from '../../domain/errors.ts';
import { requireScope } from '../../domain/oauth/api-permissions.ts';
import { holder } from './callers.ts';
import { AvatarUrl, apiAnswer, NoContent } from './responses.ts';

/** The services these routes use. */
type Services = Pick<Container, 'avatars' | 'clients' | 'config' | 'oauthTokens' | 'rateLimiter'>;

const tags = ['API v1'];
const security = [{ bearer: [] }];

/** The token holder's profile picture. */
export function avatarRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/users/me/avatar',
    {
      schema: {
        tags,
        security,
        summary: 'Upload the profile picture (multipart field "file")',
        response: apiAnswer(AvatarUrl),
      },
    },
    async (request, reply) => {
      const h = await holder(c, request, reply);
      requireScope(h.scope, 'profile:write');
      let file: Buffer;
      try {
        const part = await request.file();
        if (!part || part.fieldname !== 'file')
          throw new DomainError('INVALID_REQUEST', 'send the image as the multipart field "file"');
        file = await part.toBuffer();
      } catch (err) {
        if (err instanceof DomainError) throw err;
        const code = (err as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE')
          throw new DomainError('FILE_TOO_LARGE', 'the image must be at most 5 MB');
        // Anything else here is the body itself: another content type, a malformed or cut-off multipart
        // body, a part too many (P63: never a 500 for what the client sent).
        throw new DomainError('INVALID_REQUEST', 'send multipart/form-data with the field "file"');
      }
      return { avatar_url: (await c.avatars.upload(h.userId, file)).avatar_url };
    },
  );

  app.delete(
    '/users/me/avatar',
    {
      schema: { tags, security, summary: 'Remove the profile picture', response: apiAnswer(NoContent, 204) },
    },
    async (request, reply) => {
      const h = await holder(c, request, reply);
      requireScope(h.scope, 'profile:write');
      await c.avatars.remove(h.userId);
      return reply.status(204).send();
    },
  );
}
