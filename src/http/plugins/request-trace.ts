import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import { errorType, TRACER_NAME } from '../../observability/tracing.ts';

// A server span per HTTP request, when tracing is on (observability/tracing.ts): it starts as the request
// arrives, continuing the trace a W3C `traceparent` header names, and everything Fastify does for the request
// (its id, its log lines, the hooks, the handler and their statements and calls) runs inside it. Its name and
// attributes are the method and the route's template (never the path as sent, which can carry a token or a
// phone number), the status and the error code; it ends when the answer has gone.

const spans = new WeakMap<IncomingMessage, Span>();

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** The HTTP server Fastify listens with: each request handled inside its server span. */
export function tracedServer(handler: Handler): Server {
  return createServer((req, res) => {
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const method = req.method ?? 'GET';
    const span = trace.getTracer(TRACER_NAME).startSpan(
      method,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': method, 'network.protocol.version': req.httpVersion },
      },
      parent,
    );
    spans.set(req, span);
    res.once('close', () => {
      span.setAttribute('http.response.status_code', res.statusCode);
      span.setAttribute('callsign.outcome', outcomeOf(res.statusCode));
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(trace.setSpan(parent, span), () => handler(req, res));
  });
}

/** What the answer's status says of the request: done, refused (the caller's doing), or failed (ours). */
const outcomeOf = (status: number) => (status >= 500 ? 'failed' : status >= 400 ? 'refused' : 'ok');

/** Names each request's span by its route's template, and marks it with the error a handler threw. */
export function traceRoutes(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const span = spans.get(request.raw);
    const route = request.routeOptions.url;
    if (!span || !route) return;
    span.updateName(`${request.method} ${route}`);
    span.setAttribute('http.route', route);
  });
  // A refusal (4xx) is the caller's: the span names its code and stays unfailed; a 5xx fails it as it ends.
  app.addHook('onError', async (request, _reply, err) => {
    spans.get(request.raw)?.setAttribute('error.type', errorType(err));
  });
}
