import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { adminAttempt, adminDelivery, adminWebhookEndpoint } from './presenters.ts';
import {
  AdminDelivery,
  AdminWebhookEndpoint,
  adminAnswer,
  DeliveryWithAttempts,
  listOf,
  NoContent,
  WithSecret,
} from './responses.ts';
import { idParam, security, sendLogQuery } from './route-schema.ts';

/** The services these routes use. */
type Services = Pick<Container, 'webhooks'>;

const tags = ['Admin: webhooks'];
const endpointBody = Type.Object({
  url: Type.Optional(Type.String({ description: 'https URL of the receiver; no private addresses' })),
  events: Type.Optional(
    Type.Array(Type.String(), { description: 'event types, or ["*"] (default) for all' }),
  ),
  description: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  enabled: Type.Optional(Type.Boolean()),
});

/** Webhook endpoints, their delivery log, and replays. */
export async function webhookRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/webhook-endpoints',
    {
      schema: {
        tags,
        security,
        summary: 'Add a webhook endpoint; its secret is shown once',
        response: adminAnswer(WithSecret(AdminWebhookEndpoint), 201),
        body: endpointBody,
      },
    },
    async (request, reply) => {
      const { endpoint, secret } = await c.webhooks.create(request.body);
      return reply.status(201).send({ ...adminWebhookEndpoint(endpoint), secret });
    },
  );
  app.get(
    '/webhook-endpoints',
    {
      schema: {
        tags,
        security,
        summary: 'List webhook endpoints',
        response: adminAnswer(listOf(AdminWebhookEndpoint)),
      },
    },
    async () => ({
      data: (await c.webhooks.list()).map(adminWebhookEndpoint),
    }),
  );
  app.get(
    '/webhook-endpoints/:id',
    {
      schema: {
        tags,
        security,
        params: idParam,
        summary: 'One webhook endpoint',
        response: adminAnswer(AdminWebhookEndpoint),
      },
    },
    async (request) => adminWebhookEndpoint(await c.webhooks.get(request.params.id)),
  );
  app.patch(
    '/webhook-endpoints/:id',
    {
      schema: {
        tags,
        security,
        params: idParam,
        body: endpointBody,
        summary: 'Change URL, events, enabled',
        response: adminAnswer(AdminWebhookEndpoint),
      },
    },
    async (request) => adminWebhookEndpoint(await c.webhooks.update(request.params.id, request.body)),
  );
  app.delete(
    '/webhook-endpoints/:id',
    {
      schema: {
        tags,
        security,
        params: idParam,
        summary: 'Remove an endpoint with its deliveries',
        response: adminAnswer(NoContent, 204),
      },
    },
    async (request, reply) => {
      await c.webhooks.delete(request.params.id);
      return reply.status(204).send();
    },
  );
  webhookSecretRoutes(fastify, c);
  webhookDeliveryRoutes(fastify, c);
}

/** An endpoint's signing secret rolled, and a test event sent to it. */
export function webhookSecretRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/webhook-endpoints/:id/roll-secret',
    {
      schema: {
        tags,
        security,
        params: idParam,
        summary:
          'New signing secret (shown once); the old one signs too for expires_in seconds (default 86400)',
        body: Type.Union([Type.Object({ expires_in: Type.Optional(Type.Integer()) }), Type.Null()]),
        response: adminAnswer(WithSecret(AdminWebhookEndpoint)),
      },
    },
    async (request) => {
      const { endpoint, secret } = await c.webhooks.rollSecret(request.params.id, request.body?.expires_in);
      return { ...adminWebhookEndpoint(endpoint), secret };
    },
  );
  app.post(
    '/webhook-endpoints/:id/test',
    {
      schema: {
        tags,
        security,
        params: idParam,
        summary: 'Send this endpoint a webhook.test event (signed, retried and logged like any other)',
        response: adminAnswer(DeliveryWithAttempts, 202),
      },
    },
    async (request, reply) => {
      const { delivery, attempts } = await c.webhooks.sendTest(request.params.id);
      return reply.status(202).send({ ...adminDelivery(delivery), attempt_log: attempts.map(adminAttempt) });
    },
  );
}

/** An endpoint's delivery log, and replays of its deliveries. */
export function webhookDeliveryRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/webhook-endpoints/:id/deliveries',
    {
      schema: {
        tags,
        security,
        params: idParam,
        summary: 'Delivery log, newest first',
        response: adminAnswer(listOf(AdminDelivery)),
        querystring: sendLogQuery,
      },
    },
    async (request) => ({
      data: (await c.webhooks.deliveries(request.params.id, request.query)).map(adminDelivery),
    }),
  );
  app.get(
    '/deliveries/:id',
    {
      schema: {
        tags,
        security,
        params: idParam,
        summary: 'One delivery with every attempt',
        response: adminAnswer(DeliveryWithAttempts),
      },
    },
    async (request) => {
      const { delivery, attempts } = await c.webhooks.delivery(request.params.id);
      return { ...adminDelivery(delivery), attempt_log: attempts.map(adminAttempt) };
    },
  );
  app.post(
    '/deliveries/:id/replay',
    {
      schema: {
        tags,
        security,
        params: idParam,
        summary: 'Send again now, on a fresh schedule, same event id',
        response: adminAnswer(DeliveryWithAttempts, 202),
      },
    },
    async (request, reply) => {
      const { delivery, attempts } = await c.webhooks.replay(request.params.id);
      return reply.status(202).send({ ...adminDelivery(delivery), attempt_log: attempts.map(adminAttempt) });
    },
  );
}
