import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { ok } from './envelope.ts';
import { restSession } from './presenters.ts';
import { RestSession, Revoked, restAnswer } from './responses.ts';
import { callerOf, secured } from './schemas.ts';

/** The services these routes use. */
type Services = Pick<Container, 'sessions'>;

export function sessionRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/sessions',
    {
      schema: {
        ...secured,
        summary: "The caller's active sessions, the most recently used first, a page at a time",
        querystring: Type.Object({
          limit: Type.Optional(Type.String({ description: 'sessions per page, 1-100, default 100' })),
          offset: Type.Optional(Type.String({ description: 'sessions to skip, default 0' })),
        }),
        response: restAnswer(
          Type.Object({
            sessions: Type.Array(RestSession),
            total: Type.Integer({ description: 'every active session, not the page' }),
          }),
          'a page of the sessions',
        ),
      },
      config: { auth: true },
    },
    async (request) => {
      const caller = callerOf(request);
      const page = await c.sessions.listActive(caller.userId, request.query);
      return ok({ sessions: page.sessions.map((s) => restSession(s, caller.sessionId)), total: page.total });
    },
  );

  app.delete(
    '/sessions/:id',
    {
      schema: {
        ...secured,
        summary: "Revoke one of the caller's sessions: its tokens stop working at once",
        params: Type.Object({ id: Type.String() }),
        response: restAnswer(Revoked, 'the session ended'),
      },
      config: { auth: true },
    },
    async (request) => {
      await c.sessions.revokeOwn(callerOf(request).userId, request.params.id);
      return ok({ revoked: true });
    },
  );
}
