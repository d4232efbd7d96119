import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { ok } from './envelope.ts';
import { restConnectedApp } from './presenters.ts';
import { ConnectedApp, restAnswer } from './responses.ts';
import { callerOf, secured } from './schemas.ts';

/** The services these routes use. */
type Services = Pick<Container, 'connectedApps'>;

/** The apps the caller allowed on the consent page, and withdrawing that. */
export function connectedAppRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/users/me/apps',
    {
      schema: {
        ...secured,
        summary: 'The applications the caller allowed, the most recently allowed first',
        response: restAnswer(
          Type.Object({ apps: Type.Array(ConnectedApp) }),
          'the applications, the most recently allowed first',
        ),
      },
      config: { auth: true },
    },
    async (request) => {
      const apps = await c.connectedApps.list(callerOf(request).userId);
      return ok({ apps: apps.map(restConnectedApp) });
    },
  );

  app.delete(
    '/users/me/apps/:client_id',
    {
      schema: {
        ...secured,
        summary: 'Withdraw the caller’s consent to an application: its sessions end, and it must ask again',
        params: Type.Object({ client_id: Type.String() }),
        response: restAnswer(
          Type.Object({
            revoked: Type.Literal(true),
            sessions_revoked: Type.Integer({ description: 'the sessions of the application that ended' }),
          }),
          'the consent is withdrawn',
        ),
      },
      config: { auth: true },
    },
    async (request) => {
      const { client_id: clientId } = request.params;
      const { sessionsRevoked } = await c.connectedApps.withdraw(callerOf(request).userId, clientId);
      return ok({ revoked: true, sessions_revoked: sessionsRevoked });
    },
  );
}
