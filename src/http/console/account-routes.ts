import type { FastifyInstance, FastifyRequest } from 'fastify';
import { actionsPage } from '../pages/console/actions-page.ts';
import { kycQueuePage, kycReviewPage } from '../pages/console/kyc-pages.ts';
import { userPage, usersPage } from '../pages/console/users-pages.ts';
import { type ConsoleContext, formOf, one, problem } from './console-context.ts';

const hide = { schema: { hide: true } };
const ACTIONS_PAGE = 50;
const param = (request: FastifyRequest, name = 'id') => encodeURIComponent(one(formOf(request.params)[name]));

/** KYC review and users: what operators do for end users; and the trail of what operators did. */
export function accountRoutes(app: FastifyInstance, ctx: ConsoleContext) {
  // KYC review queue
  app.get('/console/kyc', hide, async (request, reply) =>
    ctx.page(
      reply,
      kycQueuePage(
        ctx.frame(request, '/console/kyc'),
        (await ctx.api(request, 'GET', '/kyc/verifications?status=pending')).body.data,
      ),
    ),
  );
  app.get('/console/kyc/:id', hide, async (request, reply) => {
    const res = await ctx.api(request, 'GET', `/kyc/verifications/${param(request)}`);
    if (res.status !== 200) return ctx.seeOther(reply, '/console/kyc', 'No such submission.');
    return ctx.page(reply, kycReviewPage(ctx.frame(request, '/console/kyc'), res.body));
  });
  app.get('/console/kyc/:id/photos/:photo', hide, async (request, reply) => {
    const res = await ctx.api(
      request,
      'GET',
      `/kyc/verifications/${param(request)}/photos/${param(request, 'photo')}`,
    );
    if (res.status !== 200) return reply.status(404).send();
    return reply
      .header('Content-Type', res.contentType ?? 'application/octet-stream')
      .header('Cache-Control', 'no-store')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "default-src 'none'")
      .send(res.raw);
  });
  for (const decision of ['approve', 'reject'] as const) {
    app.post(`/console/kyc/:id/${decision}`, hide, async (request, reply) => {
      const f = formOf(request.body);
      const res = await ctx.api(
        request,
        'POST',
        `/kyc/verifications/${param(request)}/${decision}`,
        decision === 'reject'
          ? { reason: one(f.reason), ...(one(f.message) ? { message: one(f.message) } : {}) }
          : {},
      );
      if (res.status !== 200) return ctx.seeOther(reply, `/console/kyc/${param(request)}`, problem(res));
      return ctx.seeOther(
        reply,
        '/console/kyc',
        decision === 'approve' ? 'Verification approved.' : 'Verification rejected.',
      );
    });
  }

  userPages(app, ctx);
}

/** Users: search, look, revoke a session; the operators' trail. */
export function userPages(app: FastifyInstance, ctx: ConsoleContext) {
  app.get('/console/users', hide, async (request, reply) => {
    const q = one(formOf(request.query).q).trim();
    // Without a search, the newest accounts.
    const found =
      (await ctx.api(request, 'GET', q ? `/users?q=${encodeURIComponent(q)}` : '/users')).body.data ?? [];
    return ctx.page(reply, usersPage(ctx.frame(request, '/console/users'), q, found));
  });
  app.get('/console/users/:id', hide, async (request, reply) => {
    const res = await ctx.api(request, 'GET', `/users/${param(request)}`);
    if (res.status !== 200) return ctx.seeOther(reply, '/console/users', 'No such user.');
    const risk = await ctx.api(request, 'GET', `/users/${param(request)}/phone-checks`);
    const checks = risk.status === 200 ? risk.body : undefined;
    return ctx.page(reply, userPage(ctx.frame(request, '/console/users'), res.body, checks));
  });
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

  // The operators' trail.
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
