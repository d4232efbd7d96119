import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Container } from '../composition/container.ts';
import { proxyTrust } from '../config/trust-proxy.ts';
import { isDatabaseUnavailable } from '../storage/database-errors.ts';
import { adminSurface } from './admin/index.ts';
import { apiV1Surface } from './api-v1/index.ts';
import { appAssociationRoutes } from './app-association.ts';
import { avatarRoutes } from './avatars.ts';
import { consoleSurface } from './console/index.ts';
import { answerFrameworkError, MAX_PARAM_LENGTH } from './errors/framework.ts';
import { restErrorHandler, sendRestError } from './errors/rest.ts';
import { homeRoutes } from './home.ts';
import { messageReceiptRoutes } from './hooks/message-receipts.ts';
import { metricsRoutes } from './metrics-routes.ts';
import { oauthSurface } from './oauth/index.ts';
import { jwksRoutes } from './oauth/jwks.ts';
import { hostedRoutes } from './pages/hosted-routes.ts';
import { manageConnections } from './plugins/connections.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { requestId } from './plugins/request-id.ts';
import { traceRoutes } from './plugins/request-trace.ts';
import { requestValidators } from './plugins/request-validators.ts';
import { answerRoundTrips, serverFactoryOf } from './plugins/round-trip-counts.ts';
import { registerTextGuard } from './plugins/text-guard.ts';
import { restSurface } from './rest/index.ts';
import { verifyPage } from './verify/verify-routes.ts';
import './types.ts';

/** What every answer of ours has: the request id and P66's headers; errors and unknown routes in the envelope. */
function answerLikeRest(app: FastifyInstance) {
  app.addHook('onRequest', async (request, reply) => {
    // No cache keeps an answer (tokens, secrets shown once, personal data) unless its route says so,
    // and no browser takes one for another type than it says.
    reply
      .header('X-Request-ID', request.id)
      .header('Cache-Control', 'no-store')
      .header('X-Content-Type-Options', 'nosniff');
  });
  // A request the database could not take is answered 503 on every surface: the log says what the database
  // said, so that an operator sees why.
  app.addHook('onError', async (request, _reply, err) => {
    if (isDatabaseUnavailable(err))
      request.log.warn({ cause: err.message }, 'the database could not take the request: answered 503');
  });
  app.setErrorHandler(restErrorHandler);
  app.setNotFoundHandler((request, reply) =>
    sendRestError(reply, 'NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`, {}),
  );
}

/** Node's default, which Fastify turns off. */
const REQUEST_TIMEOUT_MS = 300_000;

/** The HTTP of `callsign worker`, which has METRICS_TOKEN set: GET /metrics and nothing else. */
export function buildMetricsApp(c: Container): FastifyInstance {
  const app = Fastify({
    loggerInstance: c.logger as FastifyBaseLogger,
    genReqId: requestId,
    requestTimeout: REQUEST_TIMEOUT_MS,
  });
  answerLikeRest(app);
  metricsRoutes(app, c);
  return app;
}

/** Builds the HTTP application over a container; it does no I/O of its own until it listens. */
export async function buildApp(c: Container): Promise<FastifyInstance> {
  const serverFactory = serverFactoryOf(c.config);
  const app = Fastify({
    loggerInstance: c.logger as FastifyBaseLogger,
    genReqId: requestId,
    trustProxy: proxyTrust(c.config.trustProxy),
    bodyLimit: 1024 * 1024,
    // Strings stay strings: a PIN sent as a number is a client bug to report, not to coerce.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
    // The validators are compiled once for the process (plugins/request-validators.ts).
    schemaController: { compilersFactory: { buildValidator: requestValidators } },
    // Idle kept-alive sockets close as the server stops; a request still arriving on a busy one is answered
    // in its surface's format (plugins/connections.ts), not in Fastify's own.
    forceCloseConnections: 'idle',
    return503OnClosing: false,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // A request must have come in whole within this time, or its connection is closed (408). Fastify's
    // default of 0 turns off Node's limit, and a client that sends its body a byte a minute holds a socket for
    // ever; Node's own 300 s still lets 30 MiB of KYC photos come over a 1 Mbit/s phone connection.
    requestTimeout: REQUEST_TIMEOUT_MS,
    frameworkErrors: answerFrameworkError,
    // With traces on, every request is handled inside its span (plugins/request-trace.ts), and with round
    // trips counted, with counts of its own (plugins/round-trip-counts.ts).
    ...(serverFactory ? { serverFactory } : {}),
  });
  if (c.config.tracing) traceRoutes(app);
  if (c.config.roundTripCounts) answerRoundTrips(app);
  // A route's response schemas document its answers and type its handler; the answer is written as the
  // handler built it, never filtered or coerced by them (tests hold the answers to the schemas).
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  // Only JSON bodies are accepted on the JSON surfaces; anything else is INVALID_REQUEST, not a parse of text.
  app.removeContentTypeParser('text/plain');
  // An empty body sent as JSON is no body (POST /kyc/initiate has none, and many clients label every
  // request JSON); routes that need one still refuse it by their schema. Non-empty bodies keep Fastify's
  // parser, with its prototype-poisoning checks.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    body === '' ? done(null, undefined) : json(request, body as string, done),
  );
  answerLikeRest(app);
  manageConnections(app);
  registerTextGuard(app);
  await registerOpenApi(app, c);
  metricsRoutes(app, c);
  jwksRoutes(app, c);
  appAssociationRoutes(app, c);
  avatarRoutes(app, c);
  homeRoutes(app, c);
  // BRAND_LOGO_URL is fetched once, before the pages show it (at most the fetch's 5 s).
  await c.logos.loadInstanceLogo(c.config.look.brand.logoUrl);
  await app.register(async (hosted) => hostedRoutes(hosted, c));
  await app.register(async (rest) => restSurface(rest, c));
  await app.register(async (oauth) => oauthSurface(oauth, c));
  await app.register(async (api) => apiV1Surface(api, c), { prefix: '/api/v1' });
  await app.register(async (verify) => verifyPage(verify, c));
  await app.register(async (hooks) => messageReceiptRoutes(hooks, c));
  // No token set = admin API off.
  if (c.config.adminToken) {
    await app.register(async (admin) => adminSurface(admin, c), { prefix: '/admin/v1' });
    await app.register(async (console) => consoleSurface(console, c, app));
  }
  return app;
}
