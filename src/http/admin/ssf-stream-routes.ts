import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { StreamConfiguration, StreamSettings, StreamStatus } from '../oauth/ssf-schemas.ts';
import { adminAnswer, listOf, NoContent } from './responses.ts';
import { security } from './route-schema.ts';

/** The services these routes use. */
type Services = Pick<Container, 'clients' | 'signals'>;

const tags = ['Admin: Shared Signals'];
const clientParam = Type.Object({ id: Type.String({ description: 'the client_id' }) });
const streamParams = Type.Object({
  id: Type.String({ description: 'the client_id' }),
  stream_id: Type.String(),
});
const AdminStream = Type.Intersect([StreamConfiguration, Type.Omit(StreamStatus, ['stream_id'])]);

/**
 * A client's Shared Signals streams as the operator keeps them: made for a receiver that cannot make its own,
 * changed, deleted, and enabled, paused or disabled, which the receiver is told by a stream-updated event.
 */
export function ssfStreamRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const clientOf = (id: string) => c.clients.getClient(id);
  app.get(
    '/clients/:id/ssf-streams',
    {
      schema: {
        tags,
        security,
        params: clientParam,
        summary: 'A client’s Shared Signals streams, with their status',
        response: adminAnswer(listOf(AdminStream)),
      },
    },
    async (request) => ({ data: await c.signals.withStatus(await clientOf(request.params.id)) }),
  );
  app.post(
    '/clients/:id/ssf-streams',
    {
      schema: {
        tags,
        security,
        params: clientParam,
        body: Type.Object(StreamSettings),
        summary: 'Make a Shared Signals stream for a client, as its receiver would (SSF §8.1.1.1)',
        response: adminAnswer(StreamConfiguration, 201),
      },
    },
    async (request, reply) =>
      reply.status(201).send(await c.signals.create(await clientOf(request.params.id), request.body)),
  );
  app.patch(
    '/clients/:id/ssf-streams/:stream_id',
    {
      schema: {
        tags,
        security,
        params: streamParams,
        body: Type.Object(StreamSettings),
        summary: 'Change a stream in part: what is not given is kept',
        response: adminAnswer(StreamConfiguration),
      },
    },
    async (request) =>
      c.signals.update(await clientOf(request.params.id), request.params.stream_id, request.body, false),
  );
  app.delete(
    '/clients/:id/ssf-streams/:stream_id',
    {
      schema: {
        tags,
        security,
        params: streamParams,
        summary: 'Delete a stream, with the events it held',
        response: adminAnswer(NoContent, 204),
      },
    },
    async (request, reply) => {
      await c.signals.remove(await clientOf(request.params.id), request.params.stream_id);
      return reply.status(204).send();
    },
  );
  app.post(
    '/clients/:id/ssf-streams/:stream_id/status',
    {
      schema: {
        tags,
        security,
        params: streamParams,
        body: Type.Omit(StreamStatus, ['stream_id']),
        summary:
          'Enable, pause or disable a stream; its receiver is sent a stream-updated event (SSF §8.1.5)',
        response: adminAnswer(StreamStatus),
      },
    },
    async (request) =>
      c.signals.setStatus(
        await clientOf(request.params.id),
        request.params.stream_id,
        request.body.status,
        request.body.reason,
        true,
      ),
  );
}
