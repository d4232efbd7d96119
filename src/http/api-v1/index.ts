import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Container } from '../../container.ts';
import { scopedUser } from '../../domain/api-users.ts';
import { OAuthError } from '../../domain/oauth/oauth-error.ts';
import type { UserRow } from '../../storage/repositories/users.ts';
import { apiErrorHandler } from './api-errors.ts';

const tags = ['API v1'];
const security = [{ bearer: [] }];
const bearerOf = (request: FastifyRequest) =>
  /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];

/** Spec "/api/v1": plain JSON bodies; a user access token on /me paths, a server API key on the others (D23). */
export async function apiV1Surface(app: FastifyInstance, c: Container) {
  app.setErrorHandler(apiErrorHandler);
  app.setNotFoundHandler((_request, reply) =>
    reply.status(404).send({ error: 'not_found', error_description: 'no such route' }),
  );

  /** A user token's holder; an API key is no user (invalid_token). */
  const holder = async (request: FastifyRequest) => {
    const token = bearerOf(request);
    if (token?.startsWith('csk_'))
      throw new OAuthError(
        'invalid_token',
        'a server API key cannot act as a user; send a user access token',
      );
    const { user, scope } = await c.oauthTokens.holderOf(token);
    return { userId: user.id, scope, user };
  };
  /** A live server API key; a user token is valid but not allowed here (insufficient_scope). */
  const server = async (request: FastifyRequest) => {
    const token = bearerOf(request);
    if (token?.startsWith('csk_') && (await c.clients.authenticateApiKey(token))) return;
    if (token && !token.startsWith('csk_')) {
      await c.oauthTokens.holderOf(token);
      throw new OAuthError('insufficient_scope', 'this needs a server API key');
    }
    throw new OAuthError('invalid_token', 'send a server API key as a bearer token');
  };

  const me = (u: UserRow, scope: string) =>
    scopedUser(u, scope, [
      'id',
      'phone',
      'name',
      'email',
      'avatar_url',
      'kyc_status',
      'kyc_country',
      'created_at',
    ]);

  app.get(
    '/users/me',
    { schema: { tags, security, summary: 'The token holder (fields by scope, D20)' } },
    async (request) => {
      const h = await holder(request);
      return me(await c.apiUsers.me(h.userId), h.scope);
    },
  );

  app.patch(
    '/users/me',
    { schema: { tags, security, summary: 'Update name, email, metadata', body: { type: 'object' } } },
    async (request) => {
      const h = await holder(request);
      const u = await c.apiUsers.update(h.userId, h.scope, request.body as Record<string, unknown>);
      return scopedUser(u, h.scope, ['id', 'phone', 'name', 'email', 'updated_at']);
    },
  );

  app.patch(
    '/users/me/metadata',
    { schema: { tags, security, summary: 'JSON Merge Patch of metadata (RFC 7396)' } },
    async (request) => {
      const h = await holder(request);
      return { metadata: await c.apiUsers.patchMetadata(h.userId, h.scope, request.body) };
    },
  );

  app.delete(
    '/users/me',
    { schema: { tags, security, summary: 'Delete the account ({confirm: true})', body: { type: 'object' } } },
    async (request, reply) => {
      const h = await holder(request);
      await c.apiUsers.delete(h.userId, h.scope, request.body as Record<string, unknown>);
      return reply.status(204).send();
    },
  );

  app.get(
    '/users/:id',
    { schema: { tags, security, summary: 'A user, server to server' } },
    async (request) => {
      await server(request);
      const u = await c.apiUsers.byId((request.params as { id: string }).id);
      return {
        id: u.id,
        phone: u.phone,
        name: u.name,
        kyc_status: u.kyc_status.toUpperCase(),
        kyc_country: u.kyc_country,
        created_at: u.created_at,
      };
    },
  );

  app.get(
    '/users',
    { schema: { tags, security, summary: 'Users by phone, server to server (D23 pagination)' } },
    async (request) => {
      await server(request);
      const page = await c.apiUsers.byPhone(request.query as Record<string, unknown>);
      return {
        data: page.data.map((u) => ({
          id: u.id,
          phone: u.phone,
          name: u.name,
          kyc_status: u.kyc_status.toUpperCase(),
        })),
        has_more: page.has_more,
      };
    },
  );
}
