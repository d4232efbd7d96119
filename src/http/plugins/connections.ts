// How answers leave their connections, and how a stopping server lets them go.
//
// Rules:
// - An answer sent before its request's body was read whole (a refused upload, a body too large)
//   closes the connection: the unread rest would otherwise be read as the next request, or leave
//   it waiting on a kept-alive socket.
// - Once the server is stopping, a request that still arrives on a kept-alive socket is answered
//   503 in its surface's own format (the REST envelope, `{error, error_description}` on the
//   OAuth-style surfaces, an error page on the hosted pages), with Retry-After and Connection: close.
// - Stopping waits for requests in flight at most SHUTDOWN_GRACE_MS; then every connection still
//   open, idle or stuck mid-request, is closed, so a stop never waits on a client.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorPage } from '../pages/authorize-pages.ts';
import { sendPage } from '../pages/page-reply.ts';
import { sendRestError } from './rest-errors.ts';

export const SHUTDOWN_GRACE_MS = 10_000;
const RETRY_AFTER_SECONDS = '5';
const STOPPING = 'the service is restarting; try again in a few seconds';

const OAUTH_STYLE_PREFIXES = ['/api/v1/', '/admin/v1/', '/oauth/'];
const PAGE_PREFIXES = ['/authorize', '/verify', '/console'];

function answerStopping(request: FastifyRequest, reply: FastifyReply) {
  reply.header('Connection', 'close').header('Retry-After', RETRY_AFTER_SECONDS);
  const path = request.url;
  if (OAUTH_STYLE_PREFIXES.some((p) => path.startsWith(p)))
    return reply.status(503).send({ error: 'temporarily_unavailable', error_description: STOPPING });
  if (PAGE_PREFIXES.some((p) => path.startsWith(p)))
    return sendPage(reply, 503, errorPage('The service is restarting. Try again in a few seconds.'));
  return sendRestError(reply, 'SERVICE_UNAVAILABLE', STOPPING, {});
}

/** Registers both rules on the application (Fastify's own 503 while closing must be off). */
export function manageConnections(app: FastifyInstance) {
  let stopping = false;
  app.addHook('preClose', async () => {
    stopping = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    if (stopping) return answerStopping(request, reply);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.raw.complete) reply.header('Connection', 'close');
    return payload;
  });
}

/** Stops the application: no new connections, in-flight requests finished within the grace period. */
export async function closeGracefully(app: FastifyInstance, graceMs = SHUTDOWN_GRACE_MS): Promise<void> {
  const deadline = setTimeout(() => app.server.closeAllConnections(), graceMs);
  try {
    await app.close();
  } finally {
    clearTimeout(deadline);
  }
}
