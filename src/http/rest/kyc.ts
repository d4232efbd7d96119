import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';
import { ok } from './envelope.ts';
import { callerOf, envelopeResponses, secured } from './schemas.ts';

/** Spec "GET /kyc/status" and "POST /kyc/initiate" (D30). */
export function kycRoutes(app: FastifyInstance, c: Container) {
  app.post(
    '/kyc/initiate',
    {
      schema: {
        ...secured,
        summary:
          'A one-time verification_url on VERIFY_URL, valid 1800 s; FORBIDDEN once verified or while pending',
        response: envelopeResponses('{verification_url, expires_in}'),
      },
      config: { auth: true },
    },
    async (request) => ok(await c.kyc.initiate(callerOf(request).userId)),
  );

  app.get(
    '/kyc/status',
    {
      schema: {
        ...secured,
        summary: 'The KYC status record',
        response: envelopeResponses('{status, verified_at, level, documents}'),
      },
      config: { auth: true },
    },
    async (request) => ok(await c.kyc.status(callerOf(request).userId)),
  );
}
