import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { MOST_EVENTS_A_POLL } from '../../domain/signals/signals.ts';
import { NoContent } from '../admin/responses.ts';
import type { ClientFields } from './client-credentials.ts';
import { oauthAnswer } from './responses.ts';
import { ssfCaller } from './ssf-caller.ts';
import { clientFields, StreamConfiguration, StreamSettings, StreamStatus, streamId } from './ssf-schemas.ts';

/** The services these routes use. */
type Services = Pick<
  Container,
  'clientAuthenticator' | 'clientTokens' | 'clients' | 'config' | 'rateLimiter' | 'signals'
>;

const tags = ['Shared Signals'];

/** A route of the typed app these routes are declared on. */
const typed = (fastify: FastifyInstance) => fastify.withTypeProvider<TypeBoxTypeProvider>();
type TypedApp = ReturnType<typeof typed>;

/** Stream configurations and SETs are the client's own: never kept by a cache. */
const noStore = {
  preHandler: async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.header('Cache-Control', 'no-store');
  },
};

/** The client a Shared Signals call is for (ssf-caller.ts). */
type ClientOf = (
  request: FastifyRequest,
  reply: FastifyReply,
  body?: ClientFields,
) => ReturnType<typeof ssfCaller>;

/**
 * The Shared Signals transmitter's stream management (SSF 1.0 §8.1) and poll delivery (RFC 8936): each call
 * made by the client the stream is for, with its own access token or its credentials.
 */
export function ssfRoutes(fastify: FastifyInstance, c: Services) {
  const app = typed(fastify);
  const client: ClientOf = (request, reply, body) => ssfCaller(c, request, reply, body);
  streamRoutes(app, c, client);
  statusRoutes(app, c, client);
  pollRoute(app, c, client);
}

/** A stream created, read, changed in part or whole, and deleted (SSF §8.1.1). */
function streamRoutes(app: TypedApp, c: Services, client: ClientOf) {
  app.post(
    '/ssf/streams',
    {
      schema: {
        tags,
        summary: 'A receiver creates an event stream for its client',
        body: Type.Object({ ...StreamSettings, ...clientFields }),
        response: oauthAnswer(StreamConfiguration, 201),
      },
      ...noStore,
    },
    async (request, reply) => {
      const stream = await c.signals.create(await client(request, reply, request.body), request.body);
      return reply.status(201).send(stream);
    },
  );
  app.get(
    '/ssf/streams',
    {
      schema: {
        tags,
        summary: 'A stream’s configuration, or without stream_id all of the client’s streams',
        querystring: Type.Object({ stream_id: Type.Optional(streamId) }),
        response: oauthAnswer(Type.Union([StreamConfiguration, Type.Array(StreamConfiguration)])),
      },
      ...noStore,
    },
    async (request, reply) => c.signals.read(await client(request, reply), request.query.stream_id),
  );
  for (const [method, replace] of [
    ['PATCH', false],
    ['PUT', true],
  ] as const)
    app.route({
      method,
      url: '/ssf/streams',
      schema: {
        tags,
        summary: replace ? 'A stream’s configuration replaced' : 'A stream’s configuration changed in part',
        body: Type.Object({ stream_id: streamId, ...StreamSettings, ...clientFields }),
        response: oauthAnswer(StreamConfiguration),
      },
      ...noStore,
      handler: async (request, reply) =>
        c.signals.update(
          await client(request, reply, request.body),
          request.body.stream_id,
          request.body,
          replace,
        ),
    });
  app.delete(
    '/ssf/streams',
    {
      schema: {
        tags,
        summary: 'A stream deleted, with the events it held',
        querystring: Type.Object({ stream_id: streamId }),
        response: oauthAnswer(NoContent, 204),
      },
    },
    async (request, reply) => {
      await c.signals.remove(await client(request, reply), request.query.stream_id);
      return reply.status(204).send();
    },
  );
}

/** A stream's status read and set (SSF §8.1.2), and a verification asked for (§8.1.4). */
function statusRoutes(app: TypedApp, c: Services, client: ClientOf) {
  app.get(
    '/ssf/status',
    {
      schema: {
        tags,
        summary: 'A stream’s status',
        querystring: Type.Object({ stream_id: streamId }),
        response: oauthAnswer(StreamStatus),
      },
      ...noStore,
    },
    async (request, reply) => c.signals.status(await client(request, reply), request.query.stream_id),
  );
  app.post(
    '/ssf/status',
    {
      schema: {
        tags,
        summary: 'A stream enabled, paused (its events kept) or disabled (its events dropped)',
        body: Type.Object({ ...StreamStatus.properties, ...clientFields }),
        response: oauthAnswer(StreamStatus),
      },
      ...noStore,
    },
    async (request, reply) =>
      c.signals.setStatus(
        await client(request, reply, request.body),
        request.body.stream_id,
        request.body.status,
        request.body.reason,
      ),
  );
  app.post(
    '/ssf/verify',
    {
      schema: {
        tags,
        summary: 'A verification event asked for on a stream (at most once a minute)',
        body: Type.Object({
          stream_id: streamId,
          state: Type.Optional(Type.String({ maxLength: 500 })),
          ...clientFields,
        }),
        response: oauthAnswer(NoContent, 204),
      },
    },
    async (request, reply) => {
      await c.signals.verify(
        await client(request, reply, request.body),
        request.body.stream_id,
        request.body.state,
      );
      return reply.status(204).send();
    },
  );
}

/** Poll delivery (RFC 8936 §2.4). */
function pollRoute(app: TypedApp, c: Services, client: ClientOf) {
  app.post(
    '/ssf/poll/:stream_id',
    {
      schema: {
        tags,
        summary: 'Poll delivery (RFC 8936): acknowledge SETs, and take those waiting',
        params: Type.Object({ stream_id: streamId }),
        body: Type.Object({
          maxEvents: Type.Optional(
            Type.Integer({ minimum: 0, description: `at most ${MOST_EVENTS_A_POLL}` }),
          ),
          returnImmediately: Type.Optional(Type.Boolean({ description: 'every poll is answered at once' })),
          ack: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 1000 })),
          setErrs: Type.Optional(
            Type.Record(
              Type.String({ maxLength: 100 }),
              Type.Object({
                err: Type.String({ maxLength: 100 }),
                description: Type.Optional(Type.String({ maxLength: 1000 })),
              }),
            ),
          ),
          ...clientFields,
        }),
        response: oauthAnswer(
          Type.Object({
            sets: Type.Record(Type.String(), Type.String(), { description: 'each SET by its jti' }),
            moreAvailable: Type.Boolean(),
          }),
        ),
      },
      ...noStore,
    },
    async (request, reply) =>
      c.signals.poll(await client(request, reply, request.body), request.params.stream_id, request.body),
  );
}
