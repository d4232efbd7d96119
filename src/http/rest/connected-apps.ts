import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';
import type { AuthContext } from '../types.ts';
import { ok } from './envelope.ts';
import { restConnectedApp } from './presenters.ts';
import { envelopeResponses } from './schemas.ts';

const secured = { security: [{ bearer: [] }], tags: ['REST'] };

/** P102: the apps the caller allowed on the consent page, and withdrawing that. */
export function connectedAppRoutes(app: FastifyInstance, c: Container) {
  app.get(
    '/users/me/apps',
    {
      schema: {
        ...secured,
        summary: 'The applications the caller allowed (P102), the most recently allowed first',
        response: envelopeResponses(
          '{apps: [{client_id, client_name, scopes, granted_at, active_sessions, last_used_at}]}',
        ),
      },
      config: { auth: true },
    },
    async (request) => {
      const apps = await c.connectedApps.list((request.auth as AuthContext).userId);
      return ok({ apps: apps.map(restConnectedApp) });
    },
  );

  app.delete(
    '/users/me/apps/:client_id',
    {
      schema: {
        ...secured,
        summary:
          'Withdraw the caller’s consent to an application (P102): its sessions end, and it must ask again',
        params: { type: 'object', properties: { client_id: { type: 'string' } } },
        response: envelopeResponses('{revoked: true, sessions_revoked}'),
      },
      config: { auth: true },
    },
    async (request) => {
      const { client_id: clientId } = request.params as { client_id: string };
      const { sessionsRevoked } = await c.connectedApps.withdraw(
        (request.auth as AuthContext).userId,
        clientId,
      );
      return ok({ revoked: true, sessions_revoked: sessionsRevoked });
    },
  );
}
