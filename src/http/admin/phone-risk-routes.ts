import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { dateTime, nullable } from '../openapi-types.ts';
import { adminAnswer } from './responses.ts';
import { idParam, security } from './route-schema.ts';

/** The services these routes use. */
type Services = Pick<Container, 'phoneRisk'>;

const tags = ['Admin: users'];

const PhoneCheck = Type.Object({
  checked_at: dateTime(),
  provider: Type.String({ description: 'camara, twilio or http' }),
  check: Type.String({ description: 'sim_swap or number_recycling' }),
  outcome: Type.String({ description: 'swapped, not_swapped, recycled, not_recycled or unknown' }),
  detail: nullable(Type.String({ description: 'why an answer is unknown (the vendor’s status and code)' })),
  last_swap_at: nullable(dateTime('when the SIM last changed, where the provider said')),
});

/** Until when an operator's clearance lets code steps through. */
export const PhoneRiskCleared = Type.Object({ cleared_until: dateTime() });

export const PhoneRisk = Type.Object({
  checks: Type.Array(PhoneCheck, { description: 'the 50 newest, the newest first' }),
  proven_at: nullable(dateTime('when the account last proved its number (null: when it was created)')),
  recycled_at: nullable(dateTime('flagged: a check found the number recycled')),
  cleared_until: nullable(dateTime('an operator’s clearance: code steps go through until then')),
});

/** What operators see of an account's number's SIM checks, and their clearance after verifying the owner. */
export function phoneRiskAdminRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/users/:id/phone-checks',
    {
      schema: {
        tags,
        security,
        params: idParam,
        summary: "The number's latest SIM swap and recycling checks, and its flag and clearance",
        response: adminAnswer(PhoneRisk),
      },
    },
    async (request) => {
      const { checks, proof } = await c.phoneRisk.checksOf(request.params.id);
      return {
        checks: checks.map((k) => ({
          checked_at: k.checked_at.toISOString(),
          provider: k.provider,
          check: k.check_kind,
          outcome: k.outcome,
          detail: k.detail,
          last_swap_at: k.last_swap_at?.toISOString() ?? null,
        })),
        proven_at: proof?.proven_at?.toISOString() ?? null,
        recycled_at: proof?.recycled_at?.toISOString() ?? null,
        cleared_until: proof?.cleared_until?.toISOString() ?? null,
      };
    },
  );
  app.post(
    '/users/:id/phone-risk/clear',
    {
      schema: {
        tags,
        security,
        params: idParam,
        summary:
          'After verifying the owner another way: code steps of this account skip the SIM checks for 24 hours, and the recycled flag goes',
        response: adminAnswer(PhoneRiskCleared),
      },
    },
    async (request) => {
      const { cleared_until } = await c.phoneRisk.clear(request.params.id);
      return { cleared_until: cleared_until.toISOString() };
    },
  );
}
