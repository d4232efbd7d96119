import type { FastifyInstance } from 'fastify';
import { InitialAccessToken } from '../admin/client-routes.ts';
import { RolledSecret } from '../admin/client-secret-routes.ts';
import { clientSecretRolledPage, initialTokenPage } from '../pages/console/client-secret-section.ts';
import { type ConsoleContext, formOf, one } from './console-context.ts';

const hide = { schema: { hide: true } };

/**
 * Rolling a confidential client's secret: asked once more, then the new secret shown once; and an initial
 * access token for clients that register themselves, shown once.
 */
export function clientSecretPages(app: FastifyInstance, ctx: ConsoleContext) {
  app.post('/console/clients/:id/secret', hide, async (request, reply) => {
    const id = encodeURIComponent(one(formOf(request.params).id));
    const asked = ctx.confirmFirst(request, reply, {
      question:
        'Roll this client’s secret? The new one is shown once; the old one stops when its grace ends.',
      button: 'Roll secret',
      back: `/console/clients/${id}`,
    });
    if (asked) return asked;
    const grace = Number(one(formOf(request.body).grace_seconds) || '0');
    const res = await ctx.api(request, {
      method: 'POST',
      path: `/clients/${id}/secret`,
      body: { grace_seconds: grace },
      answer: RolledSecret,
    });
    if (!res.ok) return ctx.seeOther(reply, `/console/clients/${id}`, res.problem);
    return ctx.page(reply, clientSecretRolledPage(ctx.frame(request, '/console/clients'), res.body));
  });
  app.post('/console/initial-access-tokens', hide, async (request, reply) => {
    const uses = Number(one(formOf(request.body).uses));
    const res = await ctx.api(request, {
      method: 'POST',
      path: '/initial-access-tokens',
      body: { uses },
      answer: InitialAccessToken,
    });
    if (!res.ok) return ctx.seeOther(reply, '/console/clients', res.problem);
    return ctx.page(reply, initialTokenPage(ctx.frame(request, '/console/clients'), res.body));
  });
}
