import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { ok } from './envelope.ts';
import { KycStatusRecord, restAnswer } from './responses.ts';
import { callerOf, secured } from './schemas.ts';

/** The services these routes use. */
type Services = Pick<Container, 'kyc'>;

/** Spec "GET /kyc/status" and "POST /kyc/initiate". */
export function kycRoutes(app: FastifyInstance, c: Services) {
  app.post(
    '/kyc/initiate',
    {
      schema: {
        ...secured,
        summary:
          'A one-time verification_url on VERIFY_URL, valid 1800 s; FORBIDDEN once verified or while pending',
        response: restAnswer(
          Type.Object({ verification_url: Type.String(), expires_in: Type.Integer() }),
          'a one-time link to the verification page',
        ),
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
        response: restAnswer(KycStatusRecord, 'the KYC status record'),
      },
      config: { auth: true },
    },
    async (request) => ok(await c.kyc.status(callerOf(request).userId)),
  );
}
