import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { REJECTION_REASONS } from '../../domain/kyc/kyc-rules.ts';
import { binary } from '../openapi-types.ts';
import { adminPhoto, adminVerification } from './presenters.ts';
import { AdminVerification, adminAnswer, listOf, VerificationForReview } from './responses.ts';
import { idParam, security } from './route-schema.ts';

/** The services these routes use. */
type Services = Pick<Container, 'kyc'>;

const tags = ['Admin: KYC'];

/** The review queue of the `manual` provider (and the record of every decision). */
export async function kycAdminRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/kyc/verifications',
    {
      schema: {
        tags,
        security,
        summary: 'Submitted verifications, oldest first (status=pending for the review queue)',
        response: adminAnswer(listOf(AdminVerification)),
        querystring: Type.Object({ status: Type.Optional(Type.String()) }),
      },
    },
    async (request) => ({
      data: (await c.kyc.list(request.query.status)).map(adminVerification),
    }),
  );
  app.get(
    '/kyc/verifications/:id',
    {
      schema: {
        tags,
        security,
        params: idParam,
        summary: 'One submission with its photos and its user',
        response: adminAnswer(VerificationForReview),
      },
    },
    async (request) => {
      const { verification, photos, user } = await c.kyc.review(request.params.id);
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
        params: Type.Object({ id: Type.String(), photo: Type.String() }),
        summary: 'A submitted photo, decrypted',
        response: adminAnswer(binary('the image')),
      },
    },
    async (request, reply) => {
      const { photo } = request.params;
      const { contentType, data } = await c.kyc.photo(request.params.id, photo);
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
    {
      schema: {
        tags,
        security,
        params: idParam,
        summary: 'Approve a pending verification (kyc.verified)',
        response: adminAnswer(AdminVerification),
      },
    },
    async (request) => adminVerification(await c.kyc.decide(request.params.id, { status: 'verified' })),
  );
  app.post(
    '/kyc/verifications/:id/reject',
    {
      schema: {
        tags,
        security,
        params: idParam,
        summary: 'Reject a pending verification (kyc.rejected)',
        response: adminAnswer(AdminVerification),
        body: Type.Object({
          reason: Type.Enum([...REJECTION_REASONS]),
          message: Type.Optional(Type.String()),
        }),
      },
    },
    async (request) => {
      const { reason, message } = request.body;
      return adminVerification(await c.kyc.reject(request.params.id, reason, message));
    },
  );
}
