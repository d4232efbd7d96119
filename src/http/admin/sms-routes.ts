import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { isDestinationKey } from '../../config/sms-defence-settings.ts';
import { fieldError } from '../../domain/errors.ts';
import { nullable } from '../openapi-types.ts';
import { adminAnswer, listOf } from './responses.ts';
import { security } from './route-schema.ts';

/** The services these routes use. */
type Services = Pick<Container, 'smsBreaker'>;

const tags = ['Admin: SMS'];

const count = Type.Integer();
const totals = Type.Object({
  sent: Type.Integer({ description: 'codes sent' }),
  attested: Type.Integer({ description: 'of the codes sent, those an app attested (the rest: unattested)' }),
  verified: Type.Integer({ description: 'codes entered' }),
  conversion: nullable(Type.Number({ description: 'verified / sent; null when none was sent' })),
  refused: Type.Object(
    {
      country_not_allowed: count,
      number_type_not_allowed: count,
      prefix: count,
      challenge: count,
      over_cap: count,
      over_budget: count,
      rate_limited: count,
    },
    { description: 'sends refused, by reason' },
  ),
});

/** Codes sent and entered, all countries, per hour. */
export const SmsHours = Type.Object({
  end: Type.String({ description: 'the end of the last hour' }),
  sent: Type.Array(Type.Integer(), { description: 'oldest hour first' }),
  verified: Type.Array(Type.Integer()),
});

/** A country's breaker as the operator left it (null: its traffic decides). */
export const BreakerOverride = Type.Object({ country: Type.String(), override: nullable(Type.String()) });

export const CountryTraffic = Type.Object({
  country: Type.String({ description: 'ISO 3166-1 alpha-2, or 001 for numbers with no country' }),
  last_hour: totals,
  last_24h: totals,
  breaker: Type.Enum(['open', 'closed']),
  override: nullable(Type.Enum(['open', 'closed'])),
});

/** The SMS defence as operators see it: traffic and breaker per destination country, and the override. */
export function smsRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/sms/countries',
    {
      schema: {
        tags,
        security,
        summary: 'Codes sent and entered per destination country, and each country breaker',
        response: adminAnswer(listOf(CountryTraffic)),
      },
    },
    async () => ({ data: await c.smsBreaker.countries() }),
  );

  app.get(
    '/sms/hours',
    {
      schema: {
        tags,
        security,
        summary: 'Codes sent and entered, all countries, per hour over the last 24 hours',
        response: adminAnswer(SmsHours),
      },
    },
    async () => c.smsBreaker.hours(),
  );

  app.post(
    '/sms/countries/:cc/breaker',
    {
      schema: {
        tags,
        security,
        summary: "Hold a country's breaker open or closed, or give it back to the traffic (auto)",
        params: Type.Object({ cc: Type.String() }),
        body: Type.Object({ state: Type.Enum(['open', 'closed', 'auto']) }),
        response: adminAnswer(BreakerOverride),
      },
    },
    async (request) => {
      const country = request.params.cc.toUpperCase();
      if (!isDestinationKey(country))
        throw fieldError('INVALID_REQUEST', 'cc', 'cc must be an ISO 3166-1 alpha-2 country code, or 001');
      const { state } = request.body;
      await c.smsBreaker.override(country, state);
      return { country, override: state === 'auto' ? null : state };
    },
  );
}
