import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badTextPath } from '../../domain/input-text.ts';

/**
 * PostgreSQL's text and jsonb cannot hold U+0000 and no field of ours has a use for it; nor a
 * lone surrogate, which JSON's `\\ud800` escape can carry (jsonb refuses it, a text column would silently
 * hold U+FFFD instead). Either is refused as soon as the request is parsed, before anything reads or writes
 * it (rate-limit keys included). The error has the shape of a schema error, which every surface already
 * answers in its own format (REST envelope, RFC 6749 `invalid_request`, an error page). A route that must
 * place the error itself (GET /authorize, whose early errors show a page) says `ownNulCheck`.
 */
export function registerTextGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    if (request.routeOptions.config.ownNulCheck) return;
    for (const [part, value] of [
      ['params', request.params],
      ['querystring', request.query],
      ['body', request.body],
    ] as const) {
      const found = badTextPath(value);
      if (found === undefined) continue;
      const { path, problem } = found;
      const at = path.length > 80 ? `${path.slice(0, 80)}...` : path; // a deep path, shown in short
      throw Object.assign(new Error(`${at || part} ${problem}`), {
        statusCode: 400,
        validationContext: part,
        validation: [
          {
            instancePath: at ? `/${at.replaceAll('.', '/')}` : '',
            keyword: 'nul',
            params: {},
            message: problem,
          },
        ],
      });
    }
  });
}
