import { Readable } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { NEXT_KEY_PUBLISHED_SECONDS } from '../../domain/sessions/key-ring.ts';
import type { AdminActionRow } from '../../storage/repositories/admin-actions.ts';
import { dateTime } from '../openapi-types.ts';
import { AdminAction } from './admin-trail.ts';
import { adminAction, adminApiKey } from './presenters.ts';
import { AdminApiKey, adminAnswer, CreatedApiKey, listOf, NoContent, Reencrypted } from './responses.ts';
import { idParam, security } from './route-schema.ts';

/** The services these routes use. */
type Services = Pick<Container, 'accounts' | 'adminActions' | 'clients' | 'keys' | 'reencryption'>;

const tags = ['Admin'];

/** JSON Lines streamed as they are read: an answer the route's JSON schema does not describe. */
function sendJsonLines(reply: FastifyReply, lines: AsyncIterable<string>) {
  return reply.type('application/x-ndjson').send(Readable.from(lines));
}

/** Server API keys, the signing keys and the peppers, and the operators' trail. */
export function keyRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/api-keys',
    {
      schema: {
        tags,
        security,
        summary: 'Create a server API key',
        response: adminAnswer(CreatedApiKey, 201),
        body: Type.Object({ name: Type.String({ description: 'what the key is for, 1-100 characters' }) }),
      },
    },
    async (request, reply) => {
      const { key, secret } = await c.clients.createApiKey(request.body.name);
      return reply.status(201).send({ ...adminApiKey(key), key: secret });
    },
  );
  app.get(
    '/api-keys',
    { schema: { tags, security, summary: 'List API keys', response: adminAnswer(listOf(AdminApiKey)) } },
    async () => ({
      data: (await c.clients.listApiKeys()).map(adminApiKey),
    }),
  );
  app.delete(
    '/api-keys/:id',
    {
      schema: {
        tags,
        security,
        params: idParam,
        summary: 'Revoke an API key',
        response: adminAnswer(NoContent, 204),
      },
    },
    async (request, reply) => {
      await c.clients.revokeApiKey(request.params.id);
      return reply.status(204).send();
    },
  );

  signingKeyRoutes(fastify, c);
}

/** The signing keys, the key-encryption key and the PIN pepper; the operators' trail. */
export function signingKeyRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post<{ Body: { immediate?: boolean } | null | undefined }>(
    '/keys/rotate',
    {
      schema: {
        tags,
        security,
        summary: 'Rotate the token signing keys (one of each algorithm)',
        response: adminAnswer(
          Type.Object({
            kid: Type.String({ description: 'the new RS256 key' }),
            signs_from: dateTime('when the new keys start signing'),
            keys: Type.Array(Type.Object({ alg: Type.String(), kid: Type.String() }), {
              description: 'the new key of every algorithm (RS256, PS256, ES256, EdDSA)',
            }),
          }),
        ),
        description: `The new key is published at once and signs from \`signs_from\`, ${NEXT_KEY_PUBLISHED_SECONDS} s on, when every JWKS cached before it appeared has expired; the keys before it sign until then. \`immediate: true\` makes it sign at once (verifiers that cached the JWKS refuse new tokens until they fetch it again).`,
        body: Type.Union([
          Type.Object({ immediate: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
          Type.Null(),
        ]),
      },
    },
    async (request) => c.keys.rotate({ immediate: request.body?.immediate === true }),
  );
  app.post(
    '/keys/reencrypt',
    {
      schema: {
        tags,
        security,
        summary: 'Seal again with KEY_ENCRYPTION_KEY what its fallback sealed',
        response: adminAnswer(Reencrypted),
        description:
          'Rewrites every signing key, webhook secret and KYC photo stored sealed with KEY_ENCRYPTION_KEY_FALLBACK, so that the fallback can go once the refresh tokens it tagged have expired (30 days). Per kind: rows sealed again, and rows that neither key opens (left as they are). Safe to run again.',
      },
    },
    async () => c.reencryption.run(),
  );
  app.get(
    '/keys/pin-pepper',
    {
      schema: {
        tags,
        security,
        summary: "Count the live accounts' PIN hashes by the pepper that made them",
        response: adminAnswer(
          Type.Object({
            current: Type.Integer(),
            fallback: Type.Integer(),
            unnamed: Type.Integer(),
            other: Type.Integer(),
          }),
        ),
        description:
          '`current`: PIN_PEPPER; `fallback`: PIN_PEPPER_FALLBACK; `unnamed`: made before hashes named their pepper, checked with either; `other`: a pepper this instance does not hold, whose owners must reset their PIN. Each PIN moves to PIN_PEPPER at its next correct check.',
      },
    },
    async () => c.accounts.pinPeppers(),
  );

  app.get(
    '/actions',
    {
      schema: {
        tags,
        security,
        summary:
          'What operators did, newest first; with format=jsonl, the whole trail as JSON Lines, oldest first',
        response: adminAnswer(listOf(AdminAction)),
        description:
          "Every change made through the admin API or the console, and every search of accounts (with what was searched for) and look at an account, a KYC verification or a document photo: who (`api`, or `console` for a signed-in operator), from which address, under which request id, the route and its parameters, the answer's status, and (in a page of it) the account or client it was on by name. Never a body.",
        querystring: Type.Object({
          format: Type.Optional(
            Type.Union([Type.Literal('json'), Type.Literal('jsonl')], {
              description: 'jsonl: every action, one JSON object a line (application/x-ndjson), oldest first',
            }),
          ),
          limit: Type.Optional(Type.String({ description: '1-200, 50 by default' })),
          before: Type.Optional(
            Type.String({ description: 'the id of the last action of the previous page' }),
          ),
        }),
      },
    },
    async (request, reply) => {
      if (request.query.format === 'jsonl') {
        const lines = async function* (all: AsyncGenerator<AdminActionRow>) {
          for await (const action of all) yield `${JSON.stringify(adminAction(action))}\n`;
        };
        return sendJsonLines(reply, lines(c.adminActions.all()));
      }
      return { data: (await c.adminActions.list(request.query)).map(adminAction) };
    },
  );
}
