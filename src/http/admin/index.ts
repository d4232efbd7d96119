import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Container } from '../../container.ts';
import { type AdminAction, isKeptAdminAction } from '../../domain/admin-actions.ts';
import { safeEqual } from '../../domain/crypto.ts';
import { DomainError } from '../../domain/errors.ts';
import { NEXT_KEY_PUBLISHED_SECONDS } from '../../domain/key-ring.ts';
import { CONSOLE_CALL_HEADER } from '../console/console-context.ts';
import { bearerToken } from '../plugins/bearer.ts';
import { adminErrorHandler } from './admin-errors.ts';
import { keepAdminAction } from './admin-trail.ts';
import { kycAdminRoutes } from './kyc-routes.ts';
import { adminAction, adminApiKey, adminBackchannelLogout, adminClient } from './presenters.ts';
import { idOf, idParam, security, sendLogQuery } from './route-schema.ts';
import { userAdminRoutes } from './user-routes.ts';
import { webhookRoutes } from './webhook-routes.ts';

const tags = ['Admin'];

/** D36: /admin/v1, behind `Authorization: Bearer <ADMIN_TOKEN>`; registered only when ADMIN_TOKEN is set. */
export async function adminSurface(app: FastifyInstance, c: Container) {
  const adminToken = c.config.adminToken as string;
  app.setErrorHandler(adminErrorHandler);
  app.setNotFoundHandler((_request, reply) =>
    reply.status(404).send({ error: 'not_found', error_description: 'no such admin route' }),
  );
  const authenticated = new WeakSet<FastifyRequest>();
  app.addHook('onRequest', async (request) => {
    const given = bearerToken(request);
    if (!given || !safeEqual(given, adminToken))
      throw new DomainError('INVALID_TOKEN', 'send the admin token as a bearer token');
    authenticated.add(request);
  });
  // P100: kept before the answer goes, so an operator who saw it succeed finds it in the trail.
  app.addHook('onSend', async (request, reply, payload) => {
    const route = request.routeOptions.url;
    if (!authenticated.has(request) || !route || !isKeptAdminAction(request.method, route)) return payload;
    const mark = request.headers[CONSOLE_CALL_HEADER];
    const action: AdminAction = {
      source: typeof mark === 'string' && safeEqual(mark, c.consoleCallMark) ? 'console' : 'api',
      address: request.ip,
      request_id: request.id,
      method: request.method,
      route,
      params: (request.params ?? {}) as Record<string, string>,
      status: reply.statusCode,
    };
    await keepAdminAction(c, request, action);
    return payload;
  });

  app.post(
    '/clients',
    { schema: { tags, security, summary: 'Register a client (D19)', body: { type: 'object' } } },
    async (request, reply) => {
      const { client, client_secret } = await c.clients.createClient(request.body as Record<string, unknown>);
      return reply.status(201).send({ ...adminClient(client), ...(client_secret ? { client_secret } : {}) });
    },
  );
  app.get('/clients', { schema: { tags, security, summary: 'List clients' } }, async () => ({
    data: (await c.clients.listClients()).map(adminClient),
  }));
  app.get('/clients/:id', { schema: { tags, security, params: idParam } }, async (request) =>
    adminClient(await c.clients.getClient(idOf(request))),
  );
  app.patch(
    '/clients/:id',
    {
      schema: {
        tags,
        security,
        params: idParam,
        summary: 'Change name, redirect URIs, scope, grant types, first_party or backchannel_logout_uri',
        body: { type: 'object' },
      },
    },
    async (request) =>
      adminClient(await c.clients.updateClient(idOf(request), request.body as Record<string, unknown>)),
  );
  app.delete(
    '/clients/:id',
    { schema: { tags, security, params: idParam, summary: 'Delete a client and end its sessions' } },
    async (request, reply) => {
      await c.clients.deleteClient(idOf(request));
      return reply.status(204).send();
    },
  );

  app.get(
    '/clients/:id/backchannel-logouts',
    {
      schema: {
        tags,
        security,
        params: idParam,
        summary: 'Back-channel logouts sent to the client (P109), newest first',
        querystring: sendLogQuery,
      },
    },
    async (request) => ({
      data: (await c.clients.backchannelLogouts(idOf(request), request.query as Record<string, unknown>)).map(
        adminBackchannelLogout,
      ),
    }),
  );
  app.post(
    '/backchannel-logouts/:id/replay',
    {
      schema: {
        tags,
        security,
        params: idParam,
        summary: 'Send a back-channel logout again, on a fresh schedule',
      },
    },
    async (request, reply) =>
      reply.status(202).send(adminBackchannelLogout(await c.clients.replayBackchannelLogout(idOf(request)))),
  );

  app.post(
    '/api-keys',
    { schema: { tags, security, summary: 'Create a server API key (D23)', body: { type: 'object' } } },
    async (request, reply) => {
      const { key, secret } = await c.clients.createApiKey((request.body as { name?: unknown }).name);
      return reply.status(201).send({ ...adminApiKey(key), key: secret });
    },
  );
  app.get('/api-keys', { schema: { tags, security, summary: 'List API keys' } }, async () => ({
    data: (await c.clients.listApiKeys()).map(adminApiKey),
  }));
  app.delete(
    '/api-keys/:id',
    { schema: { tags, security, params: idParam, summary: 'Revoke an API key' } },
    async (request, reply) => {
      await c.clients.revokeApiKey(idOf(request));
      return reply.status(204).send();
    },
  );

  app.post<{ Body: { immediate?: boolean } | null | undefined }>(
    '/keys/rotate',
    {
      schema: {
        tags,
        security,
        summary: 'Rotate the token signing key (D25)',
        description: `P97: the new key is published at once and signs from \`signs_from\`, ${NEXT_KEY_PUBLISHED_SECONDS} s on, when every JWKS cached before it appeared has expired; the keys before it sign until then. \`immediate: true\` makes it sign at once (verifiers that cached the JWKS refuse new tokens until they fetch it again).`,
        body: {
          type: ['object', 'null'],
          properties: { immediate: { type: 'boolean' } },
          additionalProperties: false,
        },
      },
    },
    async (request) => c.keys.rotate({ immediate: request.body?.immediate === true }),
  );
  app.post(
    '/keys/reencrypt',
    {
      schema: {
        tags,
        security,
        summary: 'Seal again with KEY_ENCRYPTION_KEY what its fallback sealed (P99)',
        description:
          'Rewrites every signing key, webhook secret and KYC photo stored sealed with KEY_ENCRYPTION_KEY_FALLBACK, so that the fallback can go once the refresh tokens it tagged have expired (30 days). Per kind: rows sealed again, and rows that neither key opens (left as they are). Safe to run again.',
      },
    },
    async () => c.reencryption.run(),
  );
  app.get(
    '/keys/pin-pepper',
    {
      schema: {
        tags,
        security,
        summary: "Count the live accounts' PIN hashes by the pepper that made them (P114)",
        description:
          '`current`: PIN_PEPPER; `fallback`: PIN_PEPPER_FALLBACK; `unnamed`: made before hashes named their pepper, checked with either; `other`: a pepper this instance does not hold, whose owners must reset their PIN. Each PIN moves to PIN_PEPPER at its next correct check.',
      },
    },
    async () => c.accounts.pinPeppers(),
  );

  app.get(
    '/actions',
    {
      schema: {
        tags,
        security,
        summary: 'What operators did, newest first (P100)',
        description:
          "Every change made through the admin API or the console, and every look at an account, a KYC verification or a document photo: who (`api`, or `console` for a signed-in operator), from which address, under which request id, the route and its parameters, the answer's status. Never a body.",
        querystring: {
          type: 'object',
          properties: {
            limit: { type: 'string', description: '1-200, 50 by default' },
            before: { type: 'string', description: 'the id of the last action of the previous page' },
          },
        },
      },
    },
    async (request) => ({
      data: (await c.adminActions.list(request.query as Record<string, unknown>)).map(adminAction),
    }),
  );

  await webhookRoutes(app, c);
  await kycAdminRoutes(app, c);
  await userAdminRoutes(app, c);
}
