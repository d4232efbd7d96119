import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';
import { adminBackchannelLogout, adminClient } from './presenters.ts';
import { idOf, idParam, security, sendLogQuery } from './route-schema.ts';

const tags = ['Admin'];

/** OAuth clients (RFC 7591's names) and the back-channel logouts sent to them. */
export function clientRoutes(app: FastifyInstance, c: Container) {
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
}
