import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';
import { REJECTION_REASONS } from '../../domain/kyc/kyc-rules.ts';
import { adminPhoto, adminVerification } from './presenters.ts';
import { idOf, idParam, security } from './route-schema.ts';

const tags = ['Admin: KYC'];

/** D31: the review queue of the `manual` provider (and the record of every decision). */
export async function kycAdminRoutes(app: FastifyInstance, c: Container) {
  app.get(
    '/kyc/verifications',
    {
      schema: {
        tags,
        security,
        summary: 'Submitted verifications, oldest first (status=pending for the review queue)',
        querystring: { type: 'object', properties: { status: { type: 'string' } } },
      },
    },
    async (request) => ({
      data: (await c.kyc.list((request.query as { status?: string }).status)).map(adminVerification),
    }),
  );
  app.get(
    '/kyc/verifications/:id',
    { schema: { tags, security, params: idParam, summary: 'One submission with its photos and its user' } },
    async (request) => {
      const { verification, photos, user } = await c.kyc.review(idOf(request));
      return {
        ...adminVerification(verification),
        photos: photos.map((p) => adminPhoto(verification.id, p)),
        user: user ? { id: user.id, phone: user.phone, handle: user.handle, name: user.name } : null,
      };
    },
  );
  app.get(
    '/kyc/verifications/:id/photos/:photo',
    {
      schema: {
        tags,
        security,
        params: { type: 'object', properties: { id: { type: 'string' }, photo: { type: 'string' } } },
        summary: 'A submitted photo, decrypted',
      },
    },
    async (request, reply) => {
      const { photo } = request.params as { photo: string };
      const { contentType, data } = await c.kyc.photo(idOf(request), photo);
      return reply
        .header('Content-Type', contentType)
        .header('Cache-Control', 'no-store')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Disposition', 'inline')
        .send(data);
    },
  );
  app.post(
    '/kyc/verifications/:id/approve',
    { schema: { tags, security, params: idParam, summary: 'Approve a pending verification (kyc.verified)' } },
    async (request) => adminVerification(await c.kyc.decide(idOf(request), { status: 'verified' })),
  );
  app.post(
    '/kyc/verifications/:id/reject',
    {
      schema: {
        tags,
        security,
        params: idParam,
        summary: 'Reject a pending verification (kyc.rejected)',
        body: {
          type: 'object',
          required: ['reason'],
          properties: {
            reason: { type: 'string', enum: [...REJECTION_REASONS] },
            message: { type: 'string' },
          },
        },
      },
    },
    async (request) => {
      const body = request.body as { reason: string; message?: string };
      return adminVerification(await c.kyc.reject(idOf(request), body.reason, body.message));
    },
  );
}
