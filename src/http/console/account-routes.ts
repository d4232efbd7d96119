import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AdminVerification, listOf, VerificationForReview } from '../admin/responses.ts';
import { kycQueuePage, kycReviewPage } from '../pages/console/kyc-pages.ts';
import { bodyOf, type ConsoleContext, formOf, one } from './console-context.ts';
import { actionRoutes, userChangeRoutes, userPages } from './user-routes.ts';

const hide = { schema: { hide: true } };
const param = (request: FastifyRequest, name = 'id') => encodeURIComponent(one(formOf(request.params)[name]));

/** KYC review and users: what operators do for end users; and the trail of what operators did. */
export function accountRoutes(app: FastifyInstance, ctx: ConsoleContext) {
  // KYC review queue
  app.get('/console/kyc', hide, async (request, reply) => {
    const path = '/kyc/verifications?status=pending';
    const res = await ctx.api(request, { path, answer: listOf(AdminVerification) });
    return ctx.page(reply, kycQueuePage(ctx.frame(request, '/console/kyc'), bodyOf(res).data));
  });
  app.get('/console/kyc/:id', hide, async (request, reply) => {
    const path = `/kyc/verifications/${param(request)}`;
    const res = await ctx.api(request, { path, answer: VerificationForReview });
    if (!res.ok) return ctx.seeOther(reply, '/console/kyc', 'No such submission.');
    return ctx.page(reply, kycReviewPage(ctx.frame(request, '/console/kyc'), res.body));
  });
  app.get('/console/kyc/:id/photos/:photo', hide, async (request, reply) => {
    const path = `/kyc/verifications/${param(request)}/photos/${param(request, 'photo')}`;
    const res = await ctx.api(request, { path, answer: Type.Unknown({ description: 'the image' }) });
    if (!res.ok) return reply.status(404).send();
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
      const res = await ctx.api(request, {
        method: 'POST',
        path: `/kyc/verifications/${param(request)}/${decision}`,
        body:
          decision === 'reject'
            ? { reason: one(f.reason), ...(one(f.message) ? { message: one(f.message) } : {}) }
            : {},
        answer: AdminVerification,
      });
      if (!res.ok) return ctx.seeOther(reply, `/console/kyc/${param(request)}`, res.problem);
      return ctx.seeOther(
        reply,
        '/console/kyc',
        decision === 'approve' ? 'Verification approved.' : 'Verification rejected.',
      );
    });
  }

  userPages(app, ctx);
  userChangeRoutes(app, ctx);
  actionRoutes(app, ctx);
}
