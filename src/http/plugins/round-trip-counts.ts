import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { roundTripsHeader, roundTripsSoFar, withRoundTripCounts } from '../../observability/round-trips.ts';
import { tracedServer } from './request-trace.ts';

// Where ROUND_TRIP_COUNTS is on, each request runs with counts of its own (observability/round-trips.ts), and
// its answer says them in `X-Round-Trips`: what the request had asked of the database and Redis by the time it
// was answered.

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** The HTTP server Fastify listens with, where traces or counts need one of their own; Fastify's otherwise. */
export function serverFactoryOf(config: { tracing: boolean; roundTripCounts: boolean }) {
  if (!config.tracing && !config.roundTripCounts) return undefined;
  return (handler: Handler): Server => {
    const counted: Handler = config.roundTripCounts
      ? (req, res) => withRoundTripCounts(() => handler(req, res))
      : handler;
    return config.tracing ? tracedServer(counted) : createServer(counted);
  };
}

/** Each answer says its request's counts, where they are kept. */
export function answerRoundTrips(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    const counts = roundTripsSoFar();
    if (counts) reply.header('X-Round-Trips', roundTripsHeader(counts));
    return payload;
  });
}
