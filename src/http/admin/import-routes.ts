import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { IMPORT_MAX_LINES } from '../../domain/imports/user-import.ts';
import { adminAnswer } from './responses.ts';
import { security } from './route-schema.ts';

/** The services these routes use. */
type Services = Pick<Container, 'userImport'>;

/** The media types an import's JSON Lines come as. */
const JSON_LINES = ['application/x-ndjson', 'application/jsonl', 'text/plain'];
/** 10,000 lines of at most 10 KB of metadata each, and the rest of their fields. */
const IMPORT_BODY_LIMIT = 128 * 1024 * 1024;

const ImportReport = Type.Object({
  imported: Type.Integer({ description: 'accounts made' }),
  skipped: Type.Array(
    Type.Object({
      line: Type.Integer(),
      reason: Type.String({ description: 'phone_exists or id_exists' }),
    }),
  ),
  failed: Type.Array(
    Type.Object({
      line: Type.Integer(),
      error: Type.String({ description: 'what is wrong with the line' }),
    }),
  ),
});

const flag = (description: string) =>
  Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description }));

/** Accounts brought from another identity provider, in Callsign's JSON Lines (the CLI converts the others). */
export function importRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.addContentTypeParser(
    JSON_LINES,
    { parseAs: 'string', bodyLimit: IMPORT_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );
  app.post(
    '/users/import',
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      schema: {
        tags: ['Admin: users'],
        security,
        summary: `Import accounts: JSON Lines (application/x-ndjson), one account a line, at most ${IMPORT_MAX_LINES} lines; their first sign-in sets the PIN`,
        consumes: JSON_LINES,
        querystring: Type.Object({
          dry_run: flag('true: check and count, keep nothing'),
          emit_events: flag('true: send user.created (with imported: true) for each account made'),
        }),
        body: Type.String({
          description:
            'one JSON object a line: phone, external_id, name, handle, language, metadata, created_at, disabled',
        }),
        response: adminAnswer(ImportReport),
      },
    },
    async (request) =>
      c.userImport.run(request.body, {
        dryRun: request.query.dry_run === 'true',
        emitEvents: request.query.emit_events === 'true',
      }),
  );
}
