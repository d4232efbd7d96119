import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { parsePhone } from '../../domain/phone.ts';
import { nullable } from '../openapi-types.ts';
import { adminAnswer, listOf } from './responses.ts';
import { security } from './route-schema.ts';

/** The services these routes use. */
type Services = Pick<Container, 'messageRecords' | 'networkProofs'>;

const tags = ['Admin: silent checks'];
const money = nullable(
  Type.Number({ description: 'summed from the configured prices; null where none is set' }),
);

/** A country's proofs over the last 24 hours: silent checks and how they ended, and the codes sent. */
export const NetworkCountry = Type.Object({
  country: Type.String({ description: 'ISO 3166-1 alpha-2, or 001 for numbers with no country' }),
  tried: Type.Integer({ description: 'silent checks started' }),
  verified: Type.Integer({ description: 'numbers proven silently, with no code' }),
  other_number: Type.Integer({ description: 'checks where the network named another number' }),
  fell_back: Type.Integer({ description: 'checks the network could not answer: a code went instead' }),
  checks_cost: money,
  codes_sent: Type.Integer({ description: 'codes a provider took (after a fallback, or sent directly)' }),
  codes_cost: money,
});

/** One silent check as operators see it. */
export const NetworkCheck = Type.Object({
  id: Type.String(),
  phone: Type.String({ description: 'masked' }),
  country: nullable(Type.String()),
  provider: Type.String(),
  purpose: Type.String(),
  outcome: Type.String({ description: 'verified, other_number, unavailable, error, waiting or expired' }),
  detail: nullable(Type.String({ description: 'why, in the vendor’s few words' })),
  price: nullable(Type.Number()),
  created_at: Type.String(),
});

/** The silent checks by the mobile network: per country with the codes beside them, and the latest checks. */
export function networkRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/network-verifications/countries',
    {
      schema: {
        tags,
        security,
        summary: 'Per country over the last 24 hours: silent proofs, fallbacks to a code, and what each cost',
        response: adminAnswer(listOf(NetworkCountry)),
      },
    },
    async () => {
      const [checks, codes] = await Promise.all([
        c.networkProofs.countries(),
        c.messageRecords.codesByCountry(),
      ]);
      const codesIn = new Map(codes.map((row) => [row.country, row]));
      const countries = new Set([...checks.map((row) => row.country), ...codes.map((row) => row.country)]);
      const data = [...countries].map((country) => {
        const check = checks.find((row) => row.country === country);
        const code = codesIn.get(country);
        return {
          country,
          tried: check?.tried ?? 0,
          verified: check?.verified ?? 0,
          other_number: check?.other_number ?? 0,
          fell_back: check?.fell_back ?? 0,
          checks_cost: check?.cost ?? null,
          codes_sent: code?.sent ?? 0,
          codes_cost: code?.cost ?? null,
        };
      });
      return { data: data.sort((a, b) => b.tried - a.tried || b.codes_sent - a.codes_sent) };
    },
  );

  app.get(
    '/network-verifications',
    {
      schema: {
        tags,
        security,
        summary: 'The latest silent checks, newest first',
        querystring: Type.Object({
          phone: Type.Optional(Type.String({ description: 'E.164' })),
          limit: Type.Optional(
            Type.String({
              pattern: '^[1-9][0-9]{0,2}$',
              description: 'how many, at most 200 (50 by default)',
            }),
          ),
        }),
        response: adminAnswer(listOf(NetworkCheck)),
      },
    },
    async (request) => {
      const { phone, limit } = request.query;
      const filter = { limit: Number(limit ?? 50), phone: phone && parsePhone(phone).e164 };
      return { data: await c.networkProofs.recent(filter) };
    },
  );
}
