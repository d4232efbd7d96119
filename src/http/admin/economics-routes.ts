import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { type TInteger, Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { ECONOMICS_FIGURES } from '../../storage/repositories/code-economics.ts';
import { dateTime, nullable } from '../openapi-types.ts';
import { adminAnswer, listOf } from './responses.ts';
import { security } from './route-schema.ts';

/** The services these routes use. */
type Services = Pick<Container, 'codeEconomics' | 'smsBreaker'>;

const FIGURE_WORDS: Record<(typeof ECONOMICS_FIGURES)[number], string> = {
  sent: 'codes a provider took',
  delivered: 'of those, delivered (or read) by the provider’s receipt',
  verified: 'of those, entered correctly',
  fell_back: 'of those, sent after another provider or channel failed',
  refused_country: 'sends refused: the country is not allowed',
  refused_type: 'sends refused: the number’s type is not allowed',
  refused_prefix: 'sends refused: too many codes to its block of numbers',
  challenged: 'sends refused until a challenge was solved',
  over_cap: 'sends refused: the country’s breaker was open and its hourly cap reached',
  over_budget: 'sends refused: the day’s text budget was spent',
  rate_limited: 'sends refused by a limit on codes',
  silent_attempted: 'numbers checked silently by the mobile network (channel network)',
  silent_proven: 'of those, proven',
};

/** Each figure's schema, by its name: its type is known whole, so every figure is typed in the answer. */
const figureSchemas = Object.fromEntries(
  ECONOMICS_FIGURES.map((f) => [f, Type.Integer({ description: FIGURE_WORDS[f] })]),
) as Record<(typeof ECONOMICS_FIGURES)[number], TInteger>;

const Row = Type.Object({
  hour: Type.Optional(Type.String({ description: 'with group_by hour: the hour’s start, UTC' })),
  day: Type.Optional(Type.String({ description: 'with group_by day: YYYY-MM-DD, UTC' })),
  country: Type.Optional(
    Type.String({ description: 'ISO 3166-1 alpha-2, or 001 for numbers with no country' }),
  ),
  provider: Type.Optional(Type.String({ description: 'empty for sends refused before any provider' })),
  channel: Type.Optional(Type.String({ description: 'sms, whatsapp, voice, or network for silent checks' })),
  ...figureSchemas,
  requested: Type.Integer({ description: 'codes asked for: sent, or refused by a defence or limit' }),
  conversion: nullable(Type.Number({ description: 'verified / sent; null when none was sent' })),
  cost: Type.Number({
    description: 'what the codes and checks cost, as the price tables or the receipts say',
  }),
});

/** The economics report, as the admin API answers it. */
export const EconomicsReport = Type.Object({
  data: Type.Object({
    from: Type.String(),
    to: Type.String(),
    group_by: Type.Array(Type.String()),
    rows: Type.Array(Row),
  }),
});

/** When a country's breaker was open. */
export const BreakerOpening = Type.Object({
  country: Type.String({ description: 'ISO 3166-1 alpha-2, or 001 for numbers with no country' }),
  opened_at: dateTime('when a send first found it open'),
  closed_at: nullable(dateTime('when a send first found it closed; null while open')),
  by_operator: Type.Boolean({ description: 'held open by an operator rather than by its traffic' }),
});

/** The economics of codes: what was asked, refused, sent, delivered, entered and proven silently, and its cost. */
export function economicsRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/sms/economics',
    {
      schema: {
        tags: ['Admin: SMS'],
        security,
        summary:
          'The economics of codes per hour or day, country, provider and channel: sends, conversion, refusals, cost',
        querystring: Type.Object({
          from: Type.Optional(Type.String({ description: 'ISO 8601; 7 days before `to` unless given' })),
          to: Type.Optional(
            Type.String({ description: 'ISO 8601; the end of the current hour unless given' }),
          ),
          group_by: Type.Optional(
            Type.String({
              description: 'comma-separated: hour or day, country, provider, channel (day,country)',
            }),
          ),
        }),
        response: adminAnswer(EconomicsReport),
      },
    },
    async (request) => ({ data: await c.codeEconomics.report(request.query) }),
  );
  app.get(
    '/sms/breaker-openings',
    {
      schema: {
        tags: ['Admin: SMS'],
        security,
        summary: 'When each country’s breaker was open, oldest first',
        querystring: Type.Object({
          from: Type.Optional(
            Type.String({ format: 'date-time', description: '7 days before `to` unless given' }),
          ),
          to: Type.Optional(Type.String({ format: 'date-time', description: 'now unless given' })),
        }),
        response: adminAnswer(listOf(BreakerOpening)),
      },
    },
    async (request) => {
      const { from, to } = request.query;
      const data = await c.smsBreaker.openings({
        from: from === undefined ? undefined : new Date(from),
        to: to === undefined ? undefined : new Date(to),
      });
      return { data };
    },
  );
}
