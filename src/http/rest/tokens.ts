import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { ok } from './envelope.ts';
import { RestTokens, Revoked, restAnswer } from './responses.ts';
import { callerOf, text } from './schemas.ts';

/** The services these routes use. */
type Services = Pick<Container, 'accounts' | 'sessions'>;

export function tokenRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/auth/refresh',
    {
      schema: {
        tags: ['REST'],
        summary: 'Rotate a refresh token: the answer holds its successor',
        body: Type.Object({ refresh_token: text('the latest refresh token') }),
        response: restAnswer(RestTokens, 'new tokens: keep the refresh token, the one sent no longer works'),
      },
    },
    async (request) => ok(await c.accounts.refresh(request.body.refresh_token)),
  );

  app.post(
    '/auth/logout',
    {
      schema: {
        tags: ['REST'],
        summary: 'End the session of a refresh token',
        security: [{ bearer: [] }],
        body: Type.Object({ refresh_token: text('a refresh token of the session to end') }),
        response: restAnswer(Revoked, 'the session ended'),
      },
      config: { auth: true },
    },
    async (request) => {
      await c.sessions.logout(callerOf(request).userId, request.body.refresh_token);
      return ok({ revoked: true });
    },
  );
}
