import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';
import type { AuthContext } from '../types.ts';
import { ok } from './envelope.ts';
import { restSession } from './presenters.ts';
import { envelopeResponses } from './schemas.ts';

const secured = { security: [{ bearer: [] }], tags: ['REST'] };

export function sessionRoutes(app: FastifyInstance, c: Container) {
  app.get(
    '/sessions',
    {
      schema: {
        ...secured,
        summary: "The caller's active sessions (D15)",
        response: envelopeResponses('{sessions, total}'),
      },
      config: { auth: true },
    },
    async (request) => {
      const auth = request.auth as AuthContext;
      const sessions = (await c.sessions.listActive(auth.userId)).map((s) => restSession(s, auth.sessionId));
      return ok({ sessions, total: sessions.length });
    },
  );

  app.delete(
    '/sessions/:id',
    {
      schema: {
        ...secured,
        summary: "Revoke one of the caller's sessions (D17)",
        params: { type: 'object', properties: { id: { type: 'string' } } },
        response: envelopeResponses('{revoked: true}'),
      },
      config: { auth: true },
    },
    async (request) => {
      await c.sessions.revokeOwn((request.auth as AuthContext).userId, (request.params as { id: string }).id);
      return ok({ revoked: true });
    },
  );
}
