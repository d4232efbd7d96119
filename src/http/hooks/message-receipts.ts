import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { DomainError } from '../../domain/errors.ts';
import { badTextPath } from '../../domain/input-text.ts';
import { plainText } from '../openapi-types.ts';

/** The services these routes use. */
type Services = Pick<Container, 'config' | 'messageReceipts' | 'receiptReaders'>;

const params = Type.Object({
  provider: Type.String({ maxLength: 40, description: 'the provider’s configured name' }),
});

/**
 * Why a body is refused before anything reads it: JSON that does not parse, or that holds text no field may
 *; null when it may be read.
 */
function unreadable(contentType: string | undefined, body: string): Error | null {
  let parsed: unknown = body;
  if (contentType?.startsWith('application/json'))
    try {
      parsed = JSON.parse(body);
    } catch {
      return Object.assign(new Error('the body is not valid JSON'), { statusCode: 400 });
    }
  const bad = badTextPath(parsed);
  return bad ? Object.assign(new Error(`body ${bad.problem}`), { statusCode: 400 }) : null;
}

/**
 * Delivery receipts from the messaging vendors, at the address each message named. The body is kept as sent,
 * since the signatures are over it; an unsigned or wrongly signed callback is refused and changes nothing.
 */
export async function messageReceiptRoutes(fastify: FastifyInstance, c: Services) {
  fastify.removeContentTypeParser(['application/json', 'application/x-www-form-urlencoded']);
  fastify.addContentTypeParser(
    ['application/json', 'application/x-www-form-urlencoded'],
    { parseAs: 'string', bodyLimit: 256 * 1024 },
    (request, body, done) => done(unreadable(request.headers['content-type'], String(body)), body),
  );
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const readerOf = (provider: string) => {
    const reader = c.receiptReaders.get(provider);
    if (!reader) throw new DomainError('NOT_FOUND', 'no provider of that name sends receipts here');
    return reader;
  };
  const refused = () => new DomainError('INVALID_TOKEN', 'the callback is not signed by the provider');

  app.post(
    '/hooks/messages/:provider',
    {
      schema: {
        tags: ['Hooks'],
        summary: 'A delivery receipt from a messaging provider',
        params,
        response: {
          200: Type.Object(
            {
              success: Type.Literal(true),
              data: Type.Object({
                received: Type.Integer({ description: 'the receipts the callback held' }),
              }),
            },
            { description: 'taken (a receipt of an unknown message, or a day old, changes nothing)' },
          ),
        },
      },
    },
    async (request, reply) => {
      const reader = readerOf(request.params.provider);
      const receipts = reader.read({
        url: `${c.config.baseUrl}${request.url}`,
        headers: request.headers,
        rawBody: typeof request.body === 'string' ? request.body : '',
        query: Object.fromEntries(new URL(request.url, 'http://callsign').searchParams),
      });
      if (!receipts) throw refused();
      for (const receipt of receipts) await c.messageReceipts.apply(request.params.provider, receipt);
      return reply.status(200).send({ success: true, data: { received: receipts.length } });
    },
  );

  app.get(
    '/hooks/messages/:provider',
    {
      schema: {
        tags: ['Hooks'],
        summary: 'A provider’s check of its receipts address (Meta)',
        params,
        response: { 200: plainText('the challenge Meta sent (hub.challenge)') },
      },
    },
    async (request, reply) => {
      const query = Object.fromEntries(new URL(request.url, 'http://callsign').searchParams);
      const challenge = readerOf(request.params.provider).verifySubscription?.(query);
      if (challenge === undefined) throw refused();
      return reply.type('text/plain').send(challenge);
    },
  );
}
