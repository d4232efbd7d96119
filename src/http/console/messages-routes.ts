import type { FastifyInstance } from 'fastify';
import { messagesPage } from '../pages/console/messages-page.ts';
import type { ConsoleContext } from './console-context.ts';

const hide = { schema: { hide: true } };

/** Messages to phones, over the admin API: delivery per provider, and the latest messages. */
export function messagesPages(app: FastifyInstance, ctx: ConsoleContext) {
  app.get('/console/messages', hide, async (request, reply) => {
    const [rates, latest] = await Promise.all([
      ctx.api(request, 'GET', '/messages/delivery'),
      ctx.api(request, 'GET', '/messages?limit=50'),
    ]);
    return ctx.page(
      reply,
      messagesPage(ctx.frame(request, '/console/messages'), rates.body.data, latest.body.data),
    );
  });
}
