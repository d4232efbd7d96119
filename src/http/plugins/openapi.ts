import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { Container } from '../../composition/container.ts';
import { errorBody } from '../openapi-types.ts';
import { restErrorEnvelope } from '../rest/responses.ts';

/** The services these routes use. */
type Services = Pick<Container, 'config'>;

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** `post /auth/otp/send` -> `postAuthOtpSend`: a name a generated client can use for the operation. */
function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/\{([^}]+)\}/g, 'by $1')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return [method, ...words].map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1))).join('');
}

/** The error body of the surface a path belongs to: the REST envelope, or `{error, error_description}`. */
const errorSchemaOf = (path: string) =>
  /^\/(admin|api)\/v1\/|^\/oauth\/|^\/\.well-known\//.test(path)
    ? errorBody("the error code: RFC 6749 §5.2, RFC 6750 §3.1, or the API's own list")
    : restErrorEnvelope;

/** An operation that documents no 4XX or 5XX range gets its surface's error body for it. */
function withErrorAnswers(path: string, responses: object) {
  const schema = errorSchemaOf(path);
  const content = { 'application/json': { schema } };
  const has = (range: string) => Object.keys(responses).some((status) => status.toUpperCase() === range);
  if (!has('4XX')) Object.assign(responses, { '4XX': { description: 'the request was refused', content } });
  if (!has('5XX'))
    Object.assign(responses, { '5XX': { description: 'the service failed or is stopping', content } });
}

/**
 * Every operation of the document gets an operationId, and one that names no security scheme says so
 * (`security: []`: no bearer token; the token endpoint's client authentication is its own).
 */
function withOperationDefaults<T extends { paths?: unknown }>(document: T): T {
  const paths = document.paths;
  if (typeof paths !== 'object' || paths === null) return document;
  for (const [path, operations] of Object.entries(paths)) {
    if (typeof operations !== 'object' || operations === null) continue;
    for (const [method, operation] of Object.entries(operations)) {
      if (!HTTP_METHODS.has(method) || typeof operation !== 'object' || operation === null) continue;
      if (!('operationId' in operation))
        Object.assign(operation, { operationId: operationIdOf(method, path) });
      if (!('security' in operation)) Object.assign(operation, { security: [] });
      if ('responses' in operation && typeof operation.responses === 'object' && operation.responses !== null)
        withErrorAnswers(path, operation.responses);
    }
  }
  return document;
}

/** The OpenAPI 3 document is generated from the route schemas; /docs renders it. */
export async function registerOpenApi(app: FastifyInstance, c: Services) {
  await app.register(swagger, {
    transformObject: (document) =>
      'openapiObject' in document ? withOperationDefaults(document.openapiObject) : document.swaggerObject,
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Callsign', version: c.config.version, description: 'Phone-number identity provider' },
      servers: [{ url: c.config.baseUrl }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
