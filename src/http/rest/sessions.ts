import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';
import { described } from '../described.ts';
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
        summary: "The caller's active sessions (D15), the most recently used first, a page at a time (P73)",
        querystring: described({
          limit: 'sessions per page, 1-100, default 100',
          offset: 'sessions to skip, default 0',
        }),
        response: envelopeResponses('{sessions, total}: total counts every active session, not the page'),
      },
      config: { auth: true },
    },
    async (request) => {
      const auth = request.auth as AuthContext;
      const page = await c.sessions.listActive(auth.userId, request.query as Record<string, unknown>);
      return ok({ sessions: page.sessions.map((s) => restSession(s, auth.sessionId)), total: page.total });
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
