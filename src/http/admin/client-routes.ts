import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { described } from '../described.ts';
import { dateTime } from '../openapi-types.ts';
import { AdminClient, CreatedClient } from './client-responses.ts';
import { adminBackchannelLogout, adminClient } from './presenters.ts';
import { AdminBackchannelLogout, adminAnswer, listOf, NoContent } from './responses.ts';
import { clientFields, idParam, security, sendLogQuery } from './route-schema.ts';

/** The services these routes use. */
type Services = Pick<Container, 'clientRegistration' | 'clients'>;

/** RFC 7591 §3: what lets a client register itself, shown once. */
export const InitialAccessToken = Type.Object({
  token: Type.String({ description: 'shown once: the bearer token of POST /oauth/register' }),
  expires_at: dateTime(),
  uses: Type.Integer({ description: 'how many clients it may register' }),
});

const tags = ['Admin'];

/** OAuth clients (RFC 7591's names) and the back-channel logouts sent to them. */
export function clientRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  initialTokenRoute(fastify, c);
  app.post(
    '/clients',
    {
      schema: {
        tags,
        security,
        summary: 'Register a client',
        response: adminAnswer(CreatedClient, 201),
        body: clientFields,
      },
    },
    async (request, reply) => {
      const { client, client_secret } = await c.clients.createClient(request.body);
      return reply.status(201).send({ ...adminClient(client), ...(client_secret ? { client_secret } : {}) });
    },
  );
  app.get(
    '/clients',
    { schema: { tags, security, summary: 'List clients', response: adminAnswer(listOf(AdminClient)) } },
    async () => ({
      data: (await c.clients.listClients()).map(adminClient),
    }),
  );
  app.get(
    '/clients/:id',
    {
      schema: { tags, security, params: idParam, summary: 'One client', response: adminAnswer(AdminClient) },
    },
    async (request) => adminClient(await c.clients.getClient(request.params.id)),
  );
  app.patch(
    '/clients/:id',
    {
      schema: {
        tags,
        security,
        params: idParam,
        summary: 'Change name, redirect URIs, scope, grant types, first_party, logout URIs or branding',
        response: adminAnswer(AdminClient),
        body: clientFields,
      },
    },
    async (request) => adminClient(await c.clients.updateClient(request.params.id, request.body)),
  );
  app.delete(
    '/clients/:id',
    {
      schema: {
        tags,
        security,
        params: idParam,
        summary: 'Delete a client and end its sessions',
        response: adminAnswer(NoContent, 204),
      },
    },
    async (request, reply) => {
      await c.clients.deleteClient(request.params.id);
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
        summary: 'Back-channel logouts sent to the client, newest first',
        response: adminAnswer(listOf(AdminBackchannelLogout)),
        querystring: sendLogQuery,
      },
    },
    async (request) => ({
      data: (await c.clients.backchannelLogouts(request.params.id, request.query)).map(
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
        response: adminAnswer(AdminBackchannelLogout, 202),
      },
    },
    async (request, reply) =>
      reply
        .status(202)
        .send(adminBackchannelLogout(await c.clients.replayBackchannelLogout(request.params.id))),
  );
}

/** The initial access tokens by which clients register themselves (RFC 7591). */
function initialTokenRoute(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/initial-access-tokens',
    {
      schema: {
        tags,
        security,
        summary: 'An initial access token, for clients to register themselves (RFC 7591)',
        response: adminAnswer(InitialAccessToken, 201),
        body: described({
          expires_in: 'seconds it is good for: 1-2592000, 86400 if absent',
          uses: 'how many clients it may register: 1-1000, 1 if absent',
        }),
      },
    },
    async (request, reply) =>
      reply.status(201).send(await c.clientRegistration.createInitialAccessToken(request.body ?? {})),
  );
}
