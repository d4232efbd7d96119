import type { FastifyInstance } from 'fastify';
import { DeliveryRate, Message } from '../admin/message-routes.ts';
import { listOf } from '../admin/responses.ts';
import { messagesPage } from '../pages/console/messages-page.ts';
import { bodyOf, type ConsoleContext } from './console-context.ts';

const hide = { schema: { hide: true } };

/** Messages to phones, over the admin API: delivery per provider, and the latest messages. */
export function messagesPages(app: FastifyInstance, ctx: ConsoleContext) {
  app.get('/console/messages', hide, async (request, reply) => {
    const [rates, latest] = await Promise.all([
      ctx.api(request, { path: '/messages/delivery', answer: listOf(DeliveryRate) }),
      ctx.api(request, { path: '/messages?limit=50', answer: listOf(Message) }),
    ]);
    const frame = ctx.frame(request, '/console/messages');
    return ctx.page(reply, messagesPage(frame, bodyOf(rates).data, bodyOf(latest).data));
  });
}
