import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BRANDING_FIELDS } from '../../domain/clients/client-branding.ts';
import { AdminClient, CreatedClient } from '../admin/client-responses.ts';
import {
  AdminApiKey,
  AdminBackchannelLogout,
  CreatedApiKey,
  listOf,
  NoContent,
  Overview,
} from '../admin/responses.ts';
import { clientCreatedPage, clientEditPage, clientsPage } from '../pages/console/clients-pages.ts';
import { keyCreatedPage, keysPage } from '../pages/console/keys-pages.ts';
import { overviewPage } from '../pages/console/overview-page.ts';
import { clientSecretPages } from './client-secret-routes.ts';
import { bodyOf, type ConsoleContext, type Form, formOf, list, one, sendLog } from './console-context.ts';
import { webhookPages } from './webhook-routes.ts';

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

/** Overview, clients, API keys and webhooks: what integrators are given. */
export function integrationRoutes(app: FastifyInstance, ctx: ConsoleContext) {
  app.get('/console', hide, async (request, reply) => {
    const overview = bodyOf(await ctx.api(request, { path: '/overview', answer: Overview }));
    return ctx.page(reply, overviewPage(ctx.frame(request, '/console'), overview));
  });

  clientPages(app, ctx);
  clientSecretPages(app, ctx);
  apiKeyPages(app, ctx);
  webhookPages(app, ctx);
}

/** Clients: register, change, delete, and their back-channel logouts. */
export function clientPages(app: FastifyInstance, ctx: ConsoleContext) {
  const clients = async (request: FastifyRequest) => {
    return bodyOf(await ctx.api(request, { path: '/clients', answer: listOf(AdminClient) })).data;
  };
  app.get('/console/clients', hide, async (request, reply) =>
    ctx.page(reply, clientsPage(ctx.frame(request, '/console/clients'), await clients(request))),
  );
  app.post('/console/clients', hide, async (request, reply) => {
    const f = form(request);
    const body = { ...clientBody(f), token_endpoint_auth_method: one(f.token_endpoint_auth_method) };
    const res = await ctx.api(request, { method: 'POST', path: '/clients', body, answer: CreatedClient });
    const frame = ctx.frame(request, '/console/clients');
    if (!res.ok)
      return ctx.page(
        reply,
        clientsPage({ ...frame, error: res.problem }, await clients(request), {
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
      ctx.api(request, { path: `/clients/${id}`, answer: AdminClient }),
      sendLog(ctx, request, `/clients/${id}/backchannel-logouts`, AdminBackchannelLogout),
    ]);
    if (!client.ok) return undefined;
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
    const path = `/clients/${param(request)}`;
    const res = await ctx.api(request, {
      method: 'PATCH',
      path,
      body: clientBody(form(request)),
      answer: AdminClient,
    });
    if (res.ok) return ctx.seeOther(reply, `/console/clients/${param(request)}`, 'Saved.');
    const page = await showClient(request, res.problem);
    return page ? ctx.page(reply, page, 400) : ctx.seeOther(reply, '/console/clients', 'No such client.');
  });
  app.post('/console/clients/:id/delete', hide, async (request, reply) => {
    const asked = ctx.confirmFirst(request, reply, {
      question: 'Delete this client? Its sessions end at once, and it can no longer sign anyone in.',
      button: 'Delete client',
      back: `/console/clients/${param(request)}`,
    });
    if (asked) return asked;
    const res = await ctx.api(request, {
      method: 'DELETE',
      path: `/clients/${param(request)}`,
      answer: NoContent,
    });
    return ctx.seeOther(
      reply,
      '/console/clients',
      res.ok ? 'Client deleted; its sessions ended.' : res.problem,
    );
  });

  app.post('/console/backchannel-logouts/:id/replay', hide, async (request, reply) => {
    const path = `/backchannel-logouts/${param(request)}/replay`;
    const res = await ctx.api(request, { method: 'POST', path, answer: AdminBackchannelLogout });
    const back = `/console/clients/${encodeURIComponent(one(form(request).client))}`;
    return ctx.seeOther(reply, back, res.ok ? 'Logout queued again.' : res.problem);
  });

  // API keys
}

/** Server API keys: create, revoke. */
export function apiKeyPages(app: FastifyInstance, ctx: ConsoleContext) {
  const keys = async (request: FastifyRequest) => {
    return bodyOf(await ctx.api(request, { path: '/api-keys', answer: listOf(AdminApiKey) })).data;
  };
  app.get('/console/api-keys', hide, async (request, reply) =>
    ctx.page(reply, keysPage(ctx.frame(request, '/console/api-keys'), await keys(request))),
  );
  app.post('/console/api-keys', hide, async (request, reply) => {
    const body = { name: one(form(request).name) };
    const res = await ctx.api(request, { method: 'POST', path: '/api-keys', body, answer: CreatedApiKey });
    const frame = ctx.frame(request, '/console/api-keys');
    if (!res.ok) return ctx.page(reply, keysPage({ ...frame, error: res.problem }, await keys(request)), 400);
    return ctx.page(reply, keyCreatedPage(frame, res.body));
  });
  app.post('/console/api-keys/:id/revoke', hide, async (request, reply) => {
    const asked = ctx.confirmFirst(request, reply, {
      question: 'Revoke this API key? Servers that use it are refused at once.',
      button: 'Revoke',
      back: '/console/api-keys',
    });
    if (asked) return asked;
    const res = await ctx.api(request, {
      method: 'DELETE',
      path: `/api-keys/${param(request)}`,
      answer: NoContent,
    });
    return ctx.seeOther(reply, '/console/api-keys', res.ok ? 'API key revoked.' : res.problem);
  });

  // Webhooks
}
