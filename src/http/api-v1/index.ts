import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { scopedUser } from '../../domain/profiles/api-users.ts';
import { AVATAR_MAX_BYTES } from '../../domain/profiles/avatars.ts';
import type { UserRow } from '../../storage/repositories/users.ts';
import { described } from '../described.ts';
import { apiErrorHandler } from '../errors/api-v1.ts';
import { offerDpopNonce } from '../errors/challenges.ts';
import { allowBrowserApps } from '../plugins/browser-access.ts';
import { countRequest } from '../plugins/rate-limit-headers.ts';
import { avatarRoutes } from './avatar-routes.ts';
import { holder, server } from './callers.ts';
import { apiAnswer, Metadata, NoContent, ScopedUser, ServerUser, UsersPage } from './responses.ts';

/** The services these routes use. */
type Services = Pick<
  Container,
  'apiUsers' | 'avatars' | 'clients' | 'config' | 'dpop' | 'oauthTokens' | 'rateLimiter'
>;

const tags = ['API v1'];
const security = [{ bearer: [] }];

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

/** Spec "/api/v1": plain JSON bodies; a user access token on /me paths, a server API key on the others. */
export async function apiV1Surface(app: FastifyInstance, c: Services) {
  app.setErrorHandler(apiErrorHandler);
  app.addHook('onRequest', offerDpopNonce(c.config.oauth.dpopNonceRequired, c.dpop));
  app.setNotFoundHandler((_request, reply) =>
    reply.status(404).send({ error: 'not_found', error_description: 'no such route' }),
  );

  // A browser app acts for its user on the /me paths; the server-to-server ones (an API key) are
  // never called from a browser.
  allowBrowserApps(
    app,
    c,
    ['/users/me', '/users/me/avatar', '/users/me/metadata'],
    'GET, POST, PATCH, DELETE',
  );

  // Not in the spec (D28 names no /api/v1 limits): every request counts against its address, and once
  // authenticated against its user or API key, with the X-RateLimit-* headers of the REST surface. A
  // browser's preflight is not a request of its own.
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'OPTIONS') await countRequest(c, reply, [['api_v1_address', request.ip]]);
  });

  // The avatar is a multipart field `file`, at most 5 MiB, recognised by content.
  await app.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 0 } });
  userRoutes(app, c);
  avatarRoutes(app, c);
  serverRoutes(app, c);
}

/** The token holder's own account: read, change, delete. */
export function userRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/users/me',
    {
      schema: {
        tags,
        security,
        summary: 'The token holder (fields by scope)',
        response: apiAnswer(ScopedUser),
      },
    },
    async (request, reply) => {
      const h = await holder(c, request, reply);
      return me(await c.apiUsers.me(h.userId), h.scope);
    },
  );

  app.patch(
    '/users/me',
    {
      schema: {
        tags,
        security,
        summary: 'Update name, email, metadata (scope profile:write; email also needs email)',
        response: apiAnswer(ScopedUser),
        body: described({
          name: 'string, 1-100 characters',
          email: 'a valid e-mail address, unique (invalid_email, email_taken)',
          metadata: 'object, at most 10 KB; replaces the stored metadata',
        }),
      },
    },
    async (request, reply) => {
      const h = await holder(c, request, reply);
      const u = await c.apiUsers.update(h.userId, h.scope, request.body);
      return scopedUser(u, h.scope, ['id', 'phone', 'name', 'email', 'updated_at']);
    },
  );

  app.patch(
    '/users/me/metadata',
    {
      schema: {
        tags,
        security,
        summary: 'JSON Merge Patch of metadata (RFC 7396; scope profile:write)',
        response: apiAnswer(Metadata),
      },
    },
    async (request, reply) => {
      const h = await holder(c, request, reply);
      return { metadata: await c.apiUsers.patchMetadata(h.userId, h.scope, request.body) };
    },
  );

  app.delete(
    '/users/me',
    {
      schema: {
        tags,
        security,
        summary: 'Delete the account (scope account:delete, and the PIN entered within 5 minutes)',
        response: apiAnswer(NoContent, 204),
        body: described({ confirm: 'must be true' }),
      },
    },
    async (request, reply) => {
      const h = await holder(c, request, reply);
      await c.apiUsers.delete(h, request.body ?? {});
      return reply.status(204).send();
    },
  );
}

/** Users, server to server (an API key). */
export function serverRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/users/:id',
    {
      schema: {
        tags,
        security,
        summary: 'A user, server to server',
        response: apiAnswer(ServerUser),
        params: Type.Object({ id: Type.String() }),
      },
    },
    async (request, reply) => {
      await server(c, request, reply);
      const u = await c.apiUsers.byId(request.params.id);
      return {
        id: u.id,
        phone: u.phone,
        handle: u.handle,
        name: u.name,
        kyc_status: u.kyc_status.toUpperCase(),
        kyc_country: u.kyc_country,
        created_at: u.created_at,
        external_id: u.external_id,
        metadata: u.metadata,
      };
    },
  );

  app.get(
    '/users',
    {
      schema: {
        tags,
        security,
        summary: 'Users by phone or by the id an import kept, server to server, a page at a time',
        response: apiAnswer(UsersPage),
        querystring: described({
          phone: 'E.164, URL-encoded (+ as %2B)',
          external_id: 'the id the account had where it was imported from (instead of phone)',
          limit: '1-100, default 20',
          starting_after: 'the id of the last user of the previous page',
        }),
      },
    },
    async (request, reply) => {
      await server(c, request, reply);
      const page = await c.apiUsers.search(request.query);
      return {
        data: page.data.map((u) => ({
          id: u.id,
          phone: u.phone,
          handle: u.handle,
          name: u.name,
          kyc_status: u.kyc_status.toUpperCase(),
          external_id: u.external_id,
        })),
        has_more: page.has_more,
      };
    },
  );
}
