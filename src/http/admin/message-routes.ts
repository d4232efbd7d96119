import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { parsePhone } from '../../domain/phone.ts';
import { MESSAGE_STATUSES } from '../../storage/repositories/messages.ts';
import { nullable } from '../openapi-types.ts';
import { adminAnswer, listOf } from './responses.ts';
import { security } from './route-schema.ts';

/** The services these routes use. */
type Services = Pick<Container, 'messageRecords'>;

const tags = ['Admin: messages'];
const status = Type.Enum([...MESSAGE_STATUSES]);

export const Message = Type.Object({
  id: Type.String(),
  phone: Type.String({ description: 'masked' }),
  country: nullable(Type.String()),
  kind: Type.Enum(['code', 'notice']),
  channel: Type.Enum(['sms', 'whatsapp', 'voice']),
  provider: nullable(Type.String({ description: 'the provider that took it, by its configured name' })),
  receipts: Type.Boolean({ description: 'whether that provider reports deliveries: without, sent is final' }),
  status,
  history: Type.Array(Type.Object({ status, at: Type.String() }), { description: 'oldest first' }),
  attempts: Type.Array(
    Type.Object({
      provider: Type.String(),
      channel: Type.String(),
      ok: Type.Boolean(),
      error: Type.Optional(Type.String()),
      ms: Type.Integer(),
    }),
    { description: 'each provider tried, in order' },
  ),
  latency_ms: nullable(Type.Integer({ description: 'how long the provider that took it took to answer' })),
  delivery_seconds: nullable(Type.Number({ description: 'from sent to the first delivery receipt' })),
  resent: Type.Boolean({ description: 'a re-send was made of it, or it is one' }),
  resend_skipped: nullable(
    Type.String({
      description:
        'why the re-send of this failed code was not made: daily_limit (the day’s budget was spent), country_breaker, or no_route (no provider was left to carry it)',
    }),
  ),
  price: nullable(Type.Number()),
  created_at: Type.String(),
  delivered_at: nullable(Type.String()),
});

export const DeliveryRate = Type.Object({
  provider: Type.String(),
  sent: Type.Integer(),
  delivered: Type.Integer(),
  failed: Type.Integer(),
  rate: nullable(Type.Number({ description: 'delivered / sent; null when none was sent' })),
  receipts: Type.Boolean({
    description: 'whether the provider reports deliveries (console and http do not)',
  }),
});

/** Every message sent to a phone, its attempts and its delivery; per provider, the last day's delivery rate. */
export function messageRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/messages',
    {
      schema: {
        tags,
        security,
        summary: 'The latest messages sent to phones, newest first',
        querystring: Type.Object({
          phone: Type.Optional(Type.String({ description: 'E.164' })),
          status: Type.Optional(status),
          provider: Type.Optional(Type.String()),
          limit: Type.Optional(
            Type.String({
              pattern: '^[1-9][0-9]{0,2}$',
              description: 'how many, at most 200 (50 by default)',
            }),
          ),
        }),
        response: adminAnswer(listOf(Message)),
      },
    },
    async (request) => {
      const { phone, status, provider, limit } = request.query;
      const filter = { status, provider, limit: Math.min(200, Number(limit ?? 50)) };
      return { data: await c.messageRecords.list({ ...filter, phone: phone && parsePhone(phone).e164 }) };
    },
  );

  app.get(
    '/messages/delivery',
    {
      schema: {
        tags,
        security,
        summary: 'Per provider over the last 24 hours: messages sent, delivered and failed',
        response: adminAnswer(listOf(DeliveryRate)),
      },
    },
    async () => ({ data: await c.messageRecords.deliveryRates() }),
  );

  app.get(
    '/messages/:id',
    {
      schema: {
        tags,
        security,
        summary: 'One message: its attempts and its delivery',
        params: Type.Object({ id: Type.String() }),
        response: adminAnswer(Message),
      },
    },
    async (request) => c.messageRecords.get(request.params.id),
  );
}
