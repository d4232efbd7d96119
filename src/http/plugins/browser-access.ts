import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../composition/container.ts';

/** The services these routes use. */
type Services = Pick<Container, 'clients' | 'config'>;

const ALLOWED_HEADERS = 'Authorization, Content-Type, X-Request-ID';
const EXPOSED_HEADERS =
  'WWW-Authenticate, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Request-ID';
/** How long a browser may keep a preflight's answer. */
const PREFLIGHT_SECONDS = 600;

type OriginCheck = (origin: string) => boolean | Promise<boolean>;

/**
 * P67 (CORS, the Fetch standard): a browser app on an allowed origin may read the answers of the routes this
 * guards. No cookie is read on them (a bearer token or the form's own credentials), so a page elsewhere gains
 * nothing it couldn't do from a server; the origin check keeps the endpoints to the apps allowed, and no
 * answer allows credentials.
 */
function browserAccess(allowed: OriginCheck, methods: (request: FastifyRequest) => string) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('Vary', 'Origin');
    const origin = request.headers.origin;
    if (typeof origin !== 'string' || !(await allowed(origin))) return;
    reply
      .header('Access-Control-Allow-Origin', origin)
      .header('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    if (request.method === 'OPTIONS')
      reply
        .header('Access-Control-Allow-Methods', methods(request))
        .header('Access-Control-Allow-Headers', ALLOWED_HEADERS)
        .header('Access-Control-Max-Age', String(PREFLIGHT_SECONDS));
  };
}

/**
 * The routes at these URLs (within `app`'s prefix) are readable by browser apps on the origin of a live
 * client's redirect URI or on CORS_ORIGINS; answers their preflights (OPTIONS).
 */
export function allowBrowserApps(app: FastifyInstance, c: Services, urls: string[], methods: string) {
  const allowed = (origin: string) => c.config.corsOrigins.has(origin) || c.clients.isWebOrigin(origin);
  const onRequest = browserAccess(allowed, () => methods);
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

/**
 * Every route `app` gets after this call answers browser apps on CORS_ORIGINS (and no other origin), with a
 * preflight (OPTIONS) of its own naming the methods of its URL. Call the answer once the routes are added:
 * it adds the preflights.
 */
export function allowConfiguredOrigins(app: FastifyInstance, origins: ReadonlySet<string>): () => void {
  const methodsOf = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = methodsOf.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat())
      if (method !== 'HEAD' && method !== 'OPTIONS') methods.add(method);
    methodsOf.set(route.url, methods);
  });
  const onRequest = browserAccess(
    (origin) => origins.has(origin),
    (request) => [...(methodsOf.get(request.routeOptions.url ?? '') ?? [])].join(', '),
  );
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'OPTIONS') await onRequest(request, reply);
  });
  return () => {
    for (const url of methodsOf.keys())
      app.options(url, { schema: { hide: true }, onRequest }, async (_request, reply) =>
        reply.status(204).send(),
      );
  };
}
