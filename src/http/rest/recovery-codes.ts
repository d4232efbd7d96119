import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { dateTime, nullable } from '../openapi-types.ts';
import { ok } from './envelope.ts';
import { restAnswer } from './responses.ts';
import { callerOf, secured, text } from './schemas.ts';

/** The services these routes use. */
type Services = Pick<Container, 'recoveryCodes'>;

/** The caller's recovery codes: a new set (shown once), and how many are left. */
export function recoveryCodeRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/users/me/recovery-codes',
    {
      schema: {
        ...secured,
        summary: 'A new set of recovery codes, shown once; it replaces the set before',
        description:
          'Needs the PIN, or no body after a passkey sign-in at most 10 minutes old. Each code resets the PIN once without a code to the phone.',
        body: Type.Union([
          Type.Object({ pin: Type.Optional(text('the PIN (counts against the PIN lock)')) }),
          Type.Null(),
        ]),
        response: restAnswer(
          Type.Object({
            codes: Type.Array(Type.String({ description: 'xxxxx-xxxxx' }), { minItems: 10, maxItems: 10 }),
            created_at: dateTime(),
          }),
          'the codes: show them once and let the person keep them',
        ),
      },
      config: { auth: true },
    },
    async (request) => ok(await c.recoveryCodes.generate(callerOf(request), request.body ?? {})),
  );

  app.get(
    '/users/me/recovery-codes',
    {
      schema: {
        ...secured,
        summary: 'How many recovery codes are left, and when the set was made',
        response: restAnswer(
          Type.Object({
            remaining: Type.Integer({ description: '0 when there is no set' }),
            created_at: nullable(dateTime()),
          }),
          'the set',
        ),
      },
      config: { auth: true },
    },
    async (request) => ok(await c.recoveryCodes.status(callerOf(request).userId)),
  );
}
