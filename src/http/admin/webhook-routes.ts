import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';
import { adminAttempt, adminDelivery, adminWebhookEndpoint } from './presenters.ts';
import { idOf, idParam, security, sendLogQuery } from './route-schema.ts';

const tags = ['Admin: webhooks'];
const endpointBody = {
  type: 'object',
  properties: {
    url: { type: 'string', description: 'https URL of the receiver (D33)' },
    events: {
      type: 'array',
      items: { type: 'string' },
      description: 'event types, or ["*"] (default) for all',
    },
    description: { type: ['string', 'null'] },
    enabled: { type: 'boolean' },
  },
};

/** D32: webhook endpoints, their delivery log, and replays. */
export async function webhookRoutes(app: FastifyInstance, c: Container) {
  app.post(
    '/webhook-endpoints',
    {
      schema: {
        tags,
        security,
        summary: 'Add a webhook endpoint; its secret is shown once',
        body: endpointBody,
      },
    },
    async (request, reply) => {
      const { endpoint, secret } = await c.webhooks.create(request.body as Record<string, unknown>);
      return reply.status(201).send({ ...adminWebhookEndpoint(endpoint), secret });
    },
  );
  app.get(
    '/webhook-endpoints',
    { schema: { tags, security, summary: 'List webhook endpoints' } },
    async () => ({
      data: (await c.webhooks.list()).map(adminWebhookEndpoint),
    }),
  );
  app.get('/webhook-endpoints/:id', { schema: { tags, security, params: idParam } }, async (request) =>
    adminWebhookEndpoint(await c.webhooks.get(idOf(request))),
  );
  app.patch(
    '/webhook-endpoints/:id',
    {
      schema: { tags, security, params: idParam, body: endpointBody, summary: 'Change URL, events, enabled' },
    },
    async (request) =>
      adminWebhookEndpoint(await c.webhooks.update(idOf(request), request.body as Record<string, unknown>)),
  );
  app.delete(
    '/webhook-endpoints/:id',
    { schema: { tags, security, params: idParam, summary: 'Remove an endpoint with its deliveries' } },
    async (request, reply) => {
      await c.webhooks.delete(idOf(request));
      return reply.status(204).send();
    },
  );
  app.post(
    '/webhook-endpoints/:id/roll-secret',
    {
      schema: {
        tags,
        security,
        params: idParam,
        summary:
          'New signing secret (shown once); the old one signs too for expires_in seconds (default 86400)',
        body: { type: ['object', 'null'], properties: { expires_in: { type: 'integer' } } },
      },
    },
    async (request) => {
      const body = (request.body ?? {}) as { expires_in?: unknown };
      const { endpoint, secret } = await c.webhooks.rollSecret(idOf(request), body.expires_in);
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
      },
    },
    async (request, reply) => {
      const { delivery, attempts } = await c.webhooks.sendTest(idOf(request));
      return reply.status(202).send({ ...adminDelivery(delivery), attempt_log: attempts.map(adminAttempt) });
    },
  );
  webhookDeliveryRoutes(app, c);
}

/** An endpoint's delivery log, and replays of its deliveries. */
export function webhookDeliveryRoutes(app: FastifyInstance, c: Container) {
  app.get(
    '/webhook-endpoints/:id/deliveries',
    {
      schema: {
        tags,
        security,
        params: idParam,
        summary: 'Delivery log, newest first',
        querystring: sendLogQuery,
      },
    },
    async (request) => ({
      data: (await c.webhooks.deliveries(idOf(request), request.query as Record<string, unknown>)).map(
        adminDelivery,
      ),
    }),
  );
  app.get(
    '/deliveries/:id',
    { schema: { tags, security, params: idParam, summary: 'One delivery with every attempt' } },
    async (request) => {
      const { delivery, attempts } = await c.webhooks.delivery(idOf(request));
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
      },
    },
    async (request, reply) => {
      const { delivery, attempts } = await c.webhooks.replay(idOf(request));
      return reply.status(202).send({ ...adminDelivery(delivery), attempt_log: attempts.map(adminAttempt) });
    },
  );
}
