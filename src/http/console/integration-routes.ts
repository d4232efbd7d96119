import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BRANDING_FIELDS } from '../../domain/clients/client-branding.ts';
import { clientCreatedPage, clientEditPage, clientsPage } from '../pages/console/clients-pages.ts';
import { keyCreatedPage, keysPage } from '../pages/console/keys-pages.ts';
import { overviewPage } from '../pages/console/overview-page.ts';
import { endpointPage, endpointSecretPage, endpointsPage } from '../pages/console/webhooks-pages.ts';
import { clientSecretPages } from './client-secret-routes.ts';
import { type ConsoleContext, type Form, formOf, list, one, problem } from './console-context.ts';

const hide = { schema: { hide: true } };
const param = (request: FastifyRequest, name = 'id') => encodeURIComponent(one(formOf(request.params)[name]));
const form = (request: FastifyRequest) => formOf(request.body);

/** A textarea's non-empty lines. */
const lines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((u) => u.trim())
    .filter(Boolean);

/** The client registration form as the admin API's body (RFC 7591 names). */
const clientBody = (f: Form) => ({
  client_name: one(f.client_name),
  redirect_uris: lines(one(f.redirect_uris)),
  scope: list(f.scope).join(' '),
  first_party: one(f.first_party) === 'true',
  backchannel_logout_uri: one(f.backchannel_logout_uri).trim() || null, // Empty removes it
  post_logout_redirect_uris: lines(one(f.post_logout_redirect_uris)),
  // How it shows itself on the sign-in pages; an empty field removes it.
  ...Object.fromEntries(BRANDING_FIELDS.map((field) => [field, one(f[field]).trim() || null])),
});

/** A log of sends (webhook deliveries, back-channel logouts): its newest 100, of the page's `?status=`. */
const sendLog = async (ctx: ConsoleContext, request: FastifyRequest, path: string) => {
  const status = one(formOf(request.query).status) || undefined;
  const query = `limit=100${status ? `&status=${encodeURIComponent(status)}` : ''}`;
  const res = await ctx.api(request, 'GET', `${path}?${query}`);
  return { status, rows: res.body.data ?? [] };
};

/** Overview, clients, API keys and webhooks: what integrators are given. */
export function integrationRoutes(app: FastifyInstance, ctx: ConsoleContext) {
  app.get('/console', hide, async (request, reply) =>
    ctx.page(
      reply,
      overviewPage(ctx.frame(request, '/console'), (await ctx.api(request, 'GET', '/overview')).body),
    ),
  );

  clientPages(app, ctx);
  clientSecretPages(app, ctx);
  apiKeyPages(app, ctx);
  webhookPages(app, ctx);
}

/** Clients: register, change, delete, and their back-channel logouts. */
export function clientPages(app: FastifyInstance, ctx: ConsoleContext) {
  const clients = async (request: FastifyRequest) => (await ctx.api(request, 'GET', '/clients')).body.data;
  app.get('/console/clients', hide, async (request, reply) =>
    ctx.page(reply, clientsPage(ctx.frame(request, '/console/clients'), await clients(request))),
  );
  app.post('/console/clients', hide, async (request, reply) => {
    const f = form(request);
    const res = await ctx.api(request, 'POST', '/clients', {
      ...clientBody(f),
      token_endpoint_auth_method: one(f.token_endpoint_auth_method),
    });
    const frame = ctx.frame(request, '/console/clients');
    if (res.status !== 201)
      return ctx.page(
        reply,
        clientsPage({ ...frame, error: problem(res) }, await clients(request), {
          client_name: one(f.client_name),
          redirect_uris: one(f.redirect_uris),
          scope: list(f.scope).join(' '),
          backchannel_logout_uri: one(f.backchannel_logout_uri),
          post_logout_redirect_uris: one(f.post_logout_redirect_uris),
          ...Object.fromEntries(BRANDING_FIELDS.map((field) => [field, one(f[field])])),
        }),
        400,
      );
    return ctx.page(reply, clientCreatedPage(frame, res.body));
  });
  /** The client's page with its back-channel logouts, or undefined when there is no such client. */
  const showClient = async (request: FastifyRequest, error?: string) => {
    const id = param(request);
    const [client, logouts] = await Promise.all([
      ctx.api(request, 'GET', `/clients/${id}`),
      sendLog(ctx, request, `/clients/${id}/backchannel-logouts`),
    ]);
    if (client.status !== 200) return undefined;
    return clientEditPage(
      ctx.frame(request, '/console/clients', { error }),
      client.body,
      logouts.rows,
      logouts.status,
    );
  };
  app.get('/console/clients/:id', hide, async (request, reply) => {
    const page = await showClient(request);
    return page ? ctx.page(reply, page) : ctx.seeOther(reply, '/console/clients', 'No such client.');
  });
  app.post('/console/clients/:id', hide, async (request, reply) => {
    const res = await ctx.api(request, 'PATCH', `/clients/${param(request)}`, clientBody(form(request)));
    if (res.status === 200) return ctx.seeOther(reply, `/console/clients/${param(request)}`, 'Saved.');
    const page = await showClient(request, problem(res));
    return page ? ctx.page(reply, page, 400) : ctx.seeOther(reply, '/console/clients', 'No such client.');
  });
  app.post('/console/clients/:id/delete', hide, async (request, reply) => {
    const asked = ctx.confirmFirst(request, reply, {
      question: 'Delete this client? Its sessions end at once, and it can no longer sign anyone in.',
      button: 'Delete client',
      back: `/console/clients/${param(request)}`,
    });
    if (asked) return asked;
    const res = await ctx.api(request, 'DELETE', `/clients/${param(request)}`);
    return ctx.seeOther(
      reply,
      '/console/clients',
      res.status === 204 ? 'Client deleted; its sessions ended.' : problem(res),
    );
  });

  app.post('/console/backchannel-logouts/:id/replay', hide, async (request, reply) => {
    const res = await ctx.api(request, 'POST', `/backchannel-logouts/${param(request)}/replay`);
    const back = `/console/clients/${encodeURIComponent(one(form(request).client))}`;
    return ctx.seeOther(reply, back, res.status === 202 ? 'Logout queued again.' : problem(res));
  });

  // API keys
}

/** Server API keys: create, revoke. */
export function apiKeyPages(app: FastifyInstance, ctx: ConsoleContext) {
  const keys = async (request: FastifyRequest) => (await ctx.api(request, 'GET', '/api-keys')).body.data;
  app.get('/console/api-keys', hide, async (request, reply) =>
    ctx.page(reply, keysPage(ctx.frame(request, '/console/api-keys'), await keys(request))),
  );
  app.post('/console/api-keys', hide, async (request, reply) => {
    const res = await ctx.api(request, 'POST', '/api-keys', { name: one(form(request).name) });
    const frame = ctx.frame(request, '/console/api-keys');
    if (res.status !== 201)
      return ctx.page(reply, keysPage({ ...frame, error: problem(res) }, await keys(request)), 400);
    return ctx.page(reply, keyCreatedPage(frame, res.body));
  });
  app.post('/console/api-keys/:id/revoke', hide, async (request, reply) => {
    const asked = ctx.confirmFirst(request, reply, {
      question: 'Revoke this API key? Servers that use it are refused at once.',
      button: 'Revoke',
      back: '/console/api-keys',
    });
    if (asked) return asked;
    const res = await ctx.api(request, 'DELETE', `/api-keys/${param(request)}`);
    return ctx.seeOther(reply, '/console/api-keys', res.status === 204 ? 'API key revoked.' : problem(res));
  });

  // Webhooks
}

/** Webhook endpoints: add, change, roll the secret, test, delete; replays of deliveries. */
export function webhookPages(app: FastifyInstance, ctx: ConsoleContext) {
  const endpoints = async (request: FastifyRequest) =>
    (await ctx.api(request, 'GET', '/webhook-endpoints')).body.data;
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
    const res = await ctx.api(request, 'POST', '/webhook-endpoints', endpointBody(f));
    const frame = ctx.frame(request, '/console/webhooks');
    if (res.status !== 201)
      return ctx.page(
        reply,
        endpointsPage({ ...frame, error: problem(res) }, await endpoints(request), {
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
      ctx.api(request, 'GET', `/webhook-endpoints/${id}`),
      sendLog(ctx, request, `/webhook-endpoints/${id}/deliveries`),
    ]);
    if (endpoint.status !== 200) return undefined;
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
    const res = await ctx.api(request, 'PATCH', `/webhook-endpoints/${param(request)}`, {
      ...endpointBody(f),
      enabled: one(f.enabled) === 'true',
    });
    if (res.status === 200) return ctx.seeOther(reply, `/console/webhooks/${param(request)}`, 'Saved.');
    const page = await showEndpoint(request, problem(res));
    return page ? ctx.page(reply, page, 400) : ctx.seeOther(reply, '/console/webhooks', 'No such endpoint.');
  });
  app.post('/console/webhooks/:id/roll', hide, async (request, reply) => {
    const res = await ctx.api(request, 'POST', `/webhook-endpoints/${param(request)}/roll-secret`, {});
    if (res.status !== 200) return ctx.seeOther(reply, `/console/webhooks/${param(request)}`, problem(res));
    return ctx.page(
      reply,
      endpointSecretPage(ctx.frame(request, '/console/webhooks'), res.body, 'Secret rolled'),
    );
  });
  app.post('/console/webhooks/:id/test', hide, async (request, reply) => {
    const res = await ctx.api(request, 'POST', `/webhook-endpoints/${param(request)}/test`);
    return ctx.seeOther(
      reply,
      `/console/webhooks/${param(request)}`,
      res.status === 202 ? 'Test event queued; it appears in the log below.' : problem(res),
    );
  });
  app.post('/console/webhooks/:id/delete', hide, async (request, reply) => {
    const asked = ctx.confirmFirst(request, reply, {
      question: 'Delete this endpoint? Nothing more is delivered to it.',
      button: 'Delete endpoint',
      back: `/console/webhooks/${param(request)}`,
    });
    if (asked) return asked;
    const res = await ctx.api(request, 'DELETE', `/webhook-endpoints/${param(request)}`);
    return ctx.seeOther(reply, '/console/webhooks', res.status === 204 ? 'Endpoint deleted.' : problem(res));
  });
  app.post('/console/deliveries/:id/replay', hide, async (request, reply) => {
    const res = await ctx.api(request, 'POST', `/deliveries/${param(request)}/replay`);
    const back = `/console/webhooks/${encodeURIComponent(one(form(request).endpoint))}`;
    return ctx.seeOther(
      reply,
      back,
      res.status === 202 ? 'Delivery queued again, same event id.' : problem(res),
    );
  });
}
