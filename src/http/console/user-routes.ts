import type { FastifyInstance, FastifyRequest } from 'fastify';
import { actionsPage } from '../pages/console/actions-page.ts';
import { userPage, usersPage } from '../pages/console/users-pages.ts';
import { type ConsoleContext, formOf, one, problem } from './console-context.ts';

const hide = { schema: { hide: true } };
const ACTIONS_PAGE = 50;
const param = (request: FastifyRequest, name = 'id') => encodeURIComponent(one(formOf(request.params)[name]));

/** What a users search keeps from its form: the words, the KYC status, the days, and the page's cursor. */
const SEARCH_FIELDS = ['q', 'kyc_status', 'created_from', 'created_to', 'cursor'] as const;

/** Users: search every account with filters, a page at a time; look at one. */
export function userPages(app: FastifyInstance, ctx: ConsoleContext) {
  app.get('/console/users', hide, async (request, reply) => {
    const query = formOf(request.query);
    const search = Object.fromEntries(SEARCH_FIELDS.map((name) => [name, one(query[name]).trim()]));
    const asked = new URLSearchParams(Object.entries(search).filter(([, v]) => v !== ''));
    const res = await ctx.api(request, 'GET', `/users?${asked}`);
    const frame = ctx.frame(request, '/console/users');
    if (res.status !== 200)
      return ctx.page(reply, usersPage({ ...frame, error: problem(res) }, search, [], null), 400);
    return ctx.page(reply, usersPage(frame, search, res.body.data, res.body.next_cursor));
  });
  app.get('/console/users/:id', hide, async (request, reply) => {
    const res = await ctx.api(request, 'GET', `/users/${param(request)}`);
    if (res.status !== 200) return ctx.seeOther(reply, '/console/users', 'No such user.');
    const risk = await ctx.api(request, 'GET', `/users/${param(request)}/phone-checks`);
    const checks = risk.status === 200 ? risk.body : undefined;
    return ctx.page(reply, userPage(ctx.frame(request, '/console/users'), res.body, checks));
  });
}

/** What operators change of an account: lock, unlock, end a session, remove a passkey, clear its SIM checks. */
export function userChangeRoutes(app: FastifyInstance, ctx: ConsoleContext) {
  app.post('/console/users/:id/phone-risk/clear', hide, async (request, reply) => {
    const res = await ctx.api(request, 'POST', `/users/${param(request)}/phone-risk/clear`, {});
    const notice = 'Cleared: code sign-ins and PIN resets skip the SIM checks for 24 hours.';
    return ctx.seeOther(
      reply,
      `/console/users/${param(request)}`,
      res.status === 200 ? notice : problem(res),
    );
  });
  for (const action of ['lock', 'unlock'] as const) {
    app.post(`/console/users/:id/${action}`, hide, async (request, reply) => {
      const asked =
        action === 'lock'
          ? ctx.confirmFirst(request, reply, {
              question:
                'Lock this account? Its sessions end, and sign-in and PIN reset are refused until it is unlocked.',
              button: 'Lock account',
              back: `/console/users/${param(request)}`,
            })
          : undefined;
      if (asked) return asked;
      const res = await ctx.api(request, 'POST', `/users/${param(request)}/${action}`);
      const notice = action === 'lock' ? 'Account locked; its sessions ended.' : 'Account unlocked.';
      return ctx.seeOther(
        reply,
        `/console/users/${param(request)}`,
        res.status === 200 ? notice : problem(res),
      );
    });
  }
  app.post('/console/users/:id/sessions/:session/revoke', hide, async (request, reply) => {
    const asked = ctx.confirmFirst(request, reply, {
      question: 'Revoke this session? Its tokens stop working at once.',
      button: 'Revoke',
      back: `/console/users/${param(request)}`,
    });
    if (asked) return asked;
    const res = await ctx.api(
      request,
      'DELETE',
      `/users/${param(request)}/sessions/${param(request, 'session')}`,
    );
    return ctx.seeOther(
      reply,
      `/console/users/${param(request)}`,
      res.status === 204 ? 'Session revoked.' : problem(res),
    );
  });

  app.post('/console/users/:id/passkeys/:passkey/remove', hide, async (request, reply) => {
    const asked = ctx.confirmFirst(request, reply, {
      question: 'Remove this passkey? It can no longer sign in to this account.',
      button: 'Remove',
      back: `/console/users/${param(request)}`,
    });
    if (asked) return asked;
    const res = await ctx.api(
      request,
      'DELETE',
      `/users/${param(request)}/passkeys/${param(request, 'passkey')}`,
    );
    return ctx.seeOther(
      reply,
      `/console/users/${param(request)}`,
      res.status === 204 ? 'Passkey removed.' : problem(res),
    );
  });
}

/** The operators' trail. */
export function actionRoutes(app: FastifyInstance, ctx: ConsoleContext) {
  app.get('/console/actions', hide, async (request, reply) => {
    const before = one(formOf(request.query).before);
    const res = await ctx.api(
      request,
      'GET',
      `/actions?limit=${ACTIONS_PAGE}${before ? `&before=${encodeURIComponent(before)}` : ''}`,
    );
    const frame = ctx.frame(request, '/console/actions');
    if (res.status !== 200)
      return ctx.page(reply, actionsPage({ ...frame, error: problem(res) }, [], 0), 400);
    return ctx.page(reply, actionsPage(frame, res.body.data, ACTIONS_PAGE));
  });
}
