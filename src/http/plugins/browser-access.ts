import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../container.ts';

/** The services these routes use. */
type Services = Pick<Container, 'clients'>;

const ALLOWED_HEADERS = 'Authorization, Content-Type';
const EXPOSED_HEADERS =
  'WWW-Authenticate, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Request-ID';

/**
 * P67 (CORS, the Fetch standard): a browser app on the origin of a live client's redirect URI may read the
 * answers of the routes this guards. No cookie is read on them (a bearer token or the form's own
 * credentials), so a page elsewhere gains nothing it couldn't do from a server; the origin check keeps the
 * endpoints to the apps registered.
 */
function browserAccess(c: Services, methods: string) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('Vary', 'Origin');
    const origin = request.headers.origin;
    if (typeof origin !== 'string' || !(await c.clients.isWebOrigin(origin))) return;
    reply
      .header('Access-Control-Allow-Origin', origin)
      .header('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    if (request.method === 'OPTIONS')
      reply
        .header('Access-Control-Allow-Methods', methods)
        .header('Access-Control-Allow-Headers', ALLOWED_HEADERS)
        .header('Access-Control-Max-Age', '600');
  };
}

/**
 * The routes at these URLs (within `app`'s prefix) are readable by registered browser apps; answers their
 * preflights (OPTIONS).
 */
export function allowBrowserApps(app: FastifyInstance, c: Services, urls: string[], methods: string) {
  const onRequest = browserAccess(c, methods);
  for (const url of urls)
    app.options(url, { schema: { hide: true }, onRequest }, async (_request, reply) =>
      reply.status(204).send(),
    );
  const routes = urls.map((url) => app.prefix + url);
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'OPTIONS' && routes.includes(request.routeOptions.url as string))
      await onRequest(request, reply);
  });
}
