import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AdminAction } from '../admin/admin-trail.ts';
import { PhoneRisk, PhoneRiskCleared } from '../admin/phone-risk-routes.ts';
import { AccountDetail, AdminUser, listOf, NoContent } from '../admin/responses.ts';
import { UserSearchPage } from '../admin/user-search-routes.ts';
import { actionsPage } from '../pages/console/actions-page.ts';
import { userPage, usersPage } from '../pages/console/users-pages.ts';
import { type ConsoleContext, formOf, one } from './console-context.ts';

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
    const res = await ctx.api(request, { path: `/users?${asked}`, answer: UserSearchPage });
    const frame = ctx.frame(request, '/console/users');
    if (!res.ok) return ctx.page(reply, usersPage({ ...frame, error: res.problem }, search, [], null), 400);
    return ctx.page(reply, usersPage(frame, search, res.body.data, res.body.next_cursor, res.body));
  });
  app.get('/console/users/:id', hide, async (request, reply) => {
    const res = await ctx.api(request, { path: `/users/${param(request)}`, answer: AccountDetail });
    if (!res.ok) return ctx.seeOther(reply, '/console/users', 'No such user.');
    const risk = await ctx.api(request, { path: `/users/${param(request)}/phone-checks`, answer: PhoneRisk });
    const checks = risk.ok ? risk.body : undefined;
    return ctx.page(reply, userPage(ctx.frame(request, '/console/users'), res.body, checks));
  });
}

/** What operators change of an account: lock, unlock, end a session, remove a passkey, clear its SIM checks. */
export function userChangeRoutes(app: FastifyInstance, ctx: ConsoleContext) {
  app.post('/console/users/:id/phone-risk/clear', hide, async (request, reply) => {
    const path = `/users/${param(request)}/phone-risk/clear`;
    const res = await ctx.api(request, { method: 'POST', path, body: {}, answer: PhoneRiskCleared });
    const notice = 'Cleared: code sign-ins and PIN resets skip the SIM checks for 24 hours.';
    return ctx.seeOther(reply, `/console/users/${param(request)}`, res.ok ? notice : res.problem);
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
      const path = `/users/${param(request)}/${action}`;
      const res = await ctx.api(request, { method: 'POST', path, answer: AdminUser });
      const notice = action === 'lock' ? 'Account locked; its sessions ended.' : 'Account unlocked.';
      return ctx.seeOther(reply, `/console/users/${param(request)}`, res.ok ? notice : res.problem);
    });
  }
  app.post('/console/users/:id/sessions/:session/revoke', hide, async (request, reply) => {
    const asked = ctx.confirmFirst(request, reply, {
      question: 'Revoke this session? Its tokens stop working at once.',
      button: 'Revoke',
      back: `/console/users/${param(request)}`,
    });
    if (asked) return asked;
    const path = `/users/${param(request)}/sessions/${param(request, 'session')}`;
    const res = await ctx.api(request, { method: 'DELETE', path, answer: NoContent });
    return ctx.seeOther(reply, `/console/users/${param(request)}`, res.ok ? 'Session revoked.' : res.problem);
  });

  app.post('/console/users/:id/passkeys/:passkey/remove', hide, async (request, reply) => {
    const asked = ctx.confirmFirst(request, reply, {
      question: 'Remove this passkey? It can no longer sign in to this account.',
      button: 'Remove',
      back: `/console/users/${param(request)}`,
    });
    if (asked) return asked;
    const path = `/users/${param(request)}/passkeys/${param(request, 'passkey')}`;
    const res = await ctx.api(request, { method: 'DELETE', path, answer: NoContent });
    return ctx.seeOther(reply, `/console/users/${param(request)}`, res.ok ? 'Passkey removed.' : res.problem);
  });
}

/** The operators' trail. */
export function actionRoutes(app: FastifyInstance, ctx: ConsoleContext) {
  app.get('/console/actions', hide, async (request, reply) => {
    const before = one(formOf(request.query).before);
    const path = `/actions?limit=${ACTIONS_PAGE}${before ? `&before=${encodeURIComponent(before)}` : ''}`;
    const res = await ctx.api(request, { path, answer: listOf(AdminAction) });
    const frame = ctx.frame(request, '/console/actions');
    if (!res.ok) return ctx.page(reply, actionsPage({ ...frame, error: res.problem }, [], 0), 400);
    return ctx.page(reply, actionsPage(frame, res.body.data, ACTIONS_PAGE));
  });
}
