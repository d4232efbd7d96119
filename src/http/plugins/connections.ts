// How answers leave their connections, and how a stopping server lets them go.
//
// Rules:
// - An answer sent before its request's body was read whole (a refused upload, a body too large)
//   closes the connection: the unread rest would otherwise be read as the next request, or leave
//   it waiting on a kept-alive socket.
// - Once the server is stopping, a request that still arrives on a kept-alive socket is refused with
//   SERVICE_UNAVAILABLE, which its surface's error table answers 503 in its own format (the REST
//   envelope, `{error, error_description}` on the OAuth-style surfaces, an error page on the hosted
//   pages), with Retry-After and Connection: close.
// - Stopping waits for requests in flight at most SHUTDOWN_GRACE_MS; then every connection still
//   open, idle or stuck mid-request, is closed, so a stop never waits on a client.
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../domain/errors.ts';

export const SHUTDOWN_GRACE_MS = 10_000;
const RETRY_AFTER_SECONDS = '5';
const STOPPING = 'the service is restarting; try again in a few seconds';

/** Registers both rules on the application (Fastify's own 503 while closing must be off). */
export function manageConnections(app: FastifyInstance) {
  let stopping = false;
  app.addHook('preClose', async () => {
    stopping = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!stopping) return;
    reply.header('Connection', 'close').header('Retry-After', RETRY_AFTER_SECONDS);
    throw new DomainError('SERVICE_UNAVAILABLE', STOPPING);
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
