import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';
import { ok } from './envelope.ts';
import { body, envelopeResponses, str } from './schemas.ts';

export function tokenRoutes(app: FastifyInstance, c: Container) {
  app.post(
    '/auth/refresh',
    {
      schema: {
        tags: ['REST'],
        summary: 'Rotate a refresh token (D16)',
        body: body(['refresh_token'], { refresh_token: str('the latest refresh token') }),
        response: envelopeResponses('{access_token, refresh_token, expires_in}'),
      },
    },
    async (request) => ok(await c.accounts.refresh((request.body as Record<string, unknown>).refresh_token)),
  );

  app.post(
    '/auth/logout',
    {
      schema: {
        tags: ['REST'],
        summary: 'End the session of a refresh token (D14)',
        security: [{ bearer: [] }],
        body: body(['refresh_token'], { refresh_token: str('a refresh token of the session to end') }),
        response: envelopeResponses('{revoked: true}'),
      },
      config: { auth: true },
    },
    async (request) => {
      await c.sessions.logout(
        request.auth?.userId as string,
        (request.body as Record<string, unknown>).refresh_token,
      );
      return ok({ revoked: true });
    },
  );
}
