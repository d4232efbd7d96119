import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { MAX_SECRET_GRACE_SECONDS } from '../../domain/clients/clients.ts';
import { dateTime, nullable } from '../openapi-types.ts';
import { adminAnswer } from './responses.ts';
import { idParam, security } from './route-schema.ts';

/** A rolled secret, shown this once, and until when the old one works. */
export const RolledSecret = Type.Object({
  client_id: Type.String(),
  client_secret: Type.String({ description: 'shown this once' }),
  previous_secret_expires_at: nullable(dateTime('until when the old secret works (null: it stopped)')),
});

/** The services these routes use. */
type Services = Pick<Container, 'clients'>;

const tags = ['Admin'];

/** A confidential client's secret, rolled with a grace in which the old one still works. */
export function clientSecretRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/clients/:id/secret',
    {
      schema: {
        tags,
        security,
        params: idParam,
        summary:
          'Roll a confidential client’s secret: the new one is shown once; the old one works until the grace ends',
        body: Type.Union([
          Type.Object({
            grace_seconds: Type.Optional(
              Type.Integer({
                description: `0-${MAX_SECRET_GRACE_SECONDS}; 0 (the default): the old secret stops at once`,
              }),
            ),
          }),
          Type.Null(),
        ]),
        response: adminAnswer(RolledSecret),
      },
    },
    async (request) => {
      const { client, secret } = await c.clients.rollSecret(request.params.id, request.body?.grace_seconds);
      return {
        client_id: client.client_id,
        client_secret: secret,
        previous_secret_expires_at: client.previous_secret_expires_at,
      };
    },
  );
}
