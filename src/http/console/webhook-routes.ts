import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  AdminDelivery,
  AdminWebhookEndpoint,
  DeliveryWithAttempts,
  listOf,
  NoContent,
  WithSecret,
} from '../admin/responses.ts';
import { endpointPage, endpointSecretPage, endpointsPage } from '../pages/console/webhooks-pages.ts';
import { bodyOf, type ConsoleContext, type Form, formOf, list, one, sendLog } from './console-context.ts';

const hide = { schema: { hide: true } };
const param = (request: FastifyRequest, name = 'id') => encodeURIComponent(one(formOf(request.params)[name]));
const form = (request: FastifyRequest) => formOf(request.body);

/** Webhook endpoints: add, change, roll the secret, test, delete; replays of deliveries. */
export function webhookPages(app: FastifyInstance, ctx: ConsoleContext) {
  const endpoints = async (request: FastifyRequest) => {
    const answer = listOf(AdminWebhookEndpoint);
    return bodyOf(await ctx.api(request, { path: '/webhook-endpoints', answer })).data;
  };
  const endpointBody = (f: Form) => ({
    url: one(f.url),
    events: list(f.events).includes('*') ? ['*'] : list(f.events),
    description: one(f.description) || null,
  });
  app.get('/console/webhooks', hide, async (request, reply) =>
    ctx.page(reply, endpointsPage(ctx.frame(request, '/console/webhooks'), await endpoints(request))),
  );
  app.post('/console/webhooks', hide, async (request, reply) => {
    const f = form(request);
    const res = await ctx.api(request, {
      method: 'POST',
      path: '/webhook-endpoints',
      body: endpointBody(f),
      answer: WithSecret(AdminWebhookEndpoint),
    });
    const frame = ctx.frame(request, '/console/webhooks');
    if (!res.ok)
      return ctx.page(
        reply,
        endpointsPage({ ...frame, error: res.problem }, await endpoints(request), {
          url: one(f.url),
          description: one(f.description),
        }),
        400,
      );
    return ctx.page(reply, endpointSecretPage(frame, res.body, 'Endpoint added'));
  });
  const showEndpoint = async (request: FastifyRequest, error?: string) => {
    const id = param(request);
    const [endpoint, deliveries] = await Promise.all([
      ctx.api(request, { path: `/webhook-endpoints/${id}`, answer: AdminWebhookEndpoint }),
      sendLog(ctx, request, `/webhook-endpoints/${id}/deliveries`, AdminDelivery),
    ]);
    if (!endpoint.ok) return undefined;
    return endpointPage(
      ctx.frame(request, '/console/webhooks', { error }),
      endpoint.body,
      deliveries.rows,
      deliveries.status,
    );
  };
  app.get('/console/webhooks/:id', hide, async (request, reply) => {
    const page = await showEndpoint(request);
    return page ? ctx.page(reply, page) : ctx.seeOther(reply, '/console/webhooks', 'No such endpoint.');
  });
  app.post('/console/webhooks/:id', hide, async (request, reply) => {
    const f = form(request);
    const res = await ctx.api(request, {
      method: 'PATCH',
      path: `/webhook-endpoints/${param(request)}`,
      body: { ...endpointBody(f), enabled: one(f.enabled) === 'true' },
      answer: AdminWebhookEndpoint,
    });
    if (res.ok) return ctx.seeOther(reply, `/console/webhooks/${param(request)}`, 'Saved.');
    const page = await showEndpoint(request, res.problem);
    return page ? ctx.page(reply, page, 400) : ctx.seeOther(reply, '/console/webhooks', 'No such endpoint.');
  });
  webhookActions(app, ctx);
}

/** An endpoint's secret rolled, a test event, the endpoint deleted; a delivery replayed. */
function webhookActions(app: FastifyInstance, ctx: ConsoleContext) {
  app.post('/console/webhooks/:id/roll', hide, async (request, reply) => {
    const path = `/webhook-endpoints/${param(request)}/roll-secret`;
    const res = await ctx.api(request, {
      method: 'POST',
      path,
      body: {},
      answer: WithSecret(AdminWebhookEndpoint),
    });
    if (!res.ok) return ctx.seeOther(reply, `/console/webhooks/${param(request)}`, res.problem);
    return ctx.page(
      reply,
      endpointSecretPage(ctx.frame(request, '/console/webhooks'), res.body, 'Secret rolled'),
    );
  });
  app.post('/console/webhooks/:id/test', hide, async (request, reply) => {
    const path = `/webhook-endpoints/${param(request)}/test`;
    const res = await ctx.api(request, { method: 'POST', path, answer: DeliveryWithAttempts });
    return ctx.seeOther(
      reply,
      `/console/webhooks/${param(request)}`,
      res.ok ? 'Test event queued; it appears in the log below.' : res.problem,
    );
  });
  app.post('/console/webhooks/:id/delete', hide, async (request, reply) => {
    const asked = ctx.confirmFirst(request, reply, {
      question: 'Delete this endpoint? Nothing more is delivered to it.',
      button: 'Delete endpoint',
      back: `/console/webhooks/${param(request)}`,
    });
    if (asked) return asked;
    const path = `/webhook-endpoints/${param(request)}`;
    const res = await ctx.api(request, { method: 'DELETE', path, answer: NoContent });
    return ctx.seeOther(reply, '/console/webhooks', res.ok ? 'Endpoint deleted.' : res.problem);
  });
  app.post('/console/deliveries/:id/replay', hide, async (request, reply) => {
    const path = `/deliveries/${param(request)}/replay`;
    const res = await ctx.api(request, { method: 'POST', path, answer: DeliveryWithAttempts });
    const back = `/console/webhooks/${encodeURIComponent(one(form(request).endpoint))}`;
    return ctx.seeOther(reply, back, res.ok ? 'Delivery queued again, same event id.' : res.problem);
  });
}
