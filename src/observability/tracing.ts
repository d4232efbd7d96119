import {
  type Attributes,
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

// OpenTelemetry traces, exported over OTLP/HTTP where the operator points them (OTEL_EXPORTER_OTLP_ENDPOINT or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT; the other OTEL_* variables as the SDK reads them: headers, sampler,
// service name, resource attributes). Unset, nothing is registered and every helper here is one test of a flag.
//
// Rules it enforces:
// - No span carries a secret, a phone number or a token: names and attributes are the route's template, the
//   statement's verb and table, a vendor's name and host, statuses and error codes; never a URL's path or query,
//   a statement's values, a header, a body, or an error's message.

/** The tracer's name, which every span of the service carries. */
export const TRACER_NAME = 'callsign';

let tracingOn = false;

export interface Tracing {
  /** exports every span ended so far */
  flush(): Promise<void>;
}

let provider: NodeTracerProvider | undefined;

/**
 * Registers the process's tracer provider (once: every app of the process shares it), batching spans to the
 * OTLP endpoint, with W3C trace context and baggage as the propagators.
 */
export function startTracing(serviceVersion: string): Tracing {
  if (!provider) {
    const resource = resourceFromAttributes({
      'service.name': 'callsign',
      'service.version': serviceVersion,
    }).merge(detectResources({ detectors: [envDetector] }));
    provider = new NodeTracerProvider({
      resource,
      spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
    });
    provider.register();
    tracingOn = true;
  }
  const registered = provider;
  return { flush: () => registered.forceFlush() };
}

/** The name of an error as a span may carry it: its code where it has a short one, else its class. */
export function errorType(err: unknown): string {
  const e = err as { code?: unknown; error?: unknown; name?: unknown };
  for (const candidate of [e?.code, e?.error, e?.name])
    if (typeof candidate === 'string' && /^[A-Za-z0-9_.:-]{1,64}$/.test(candidate)) return candidate;
  return 'Error';
}

/** Marks a span failed, by the error's type only. */
export function failSpan(span: Span, err: unknown): void {
  span.setAttribute('error.type', errorType(err));
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/**
 * `run` inside a child span of whatever span is active (its own calls become its children); `run` alone when
 * tracing is off. A failure ends the span as failed, by the error's type, and is thrown on.
 */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  run: () => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> {
  if (!tracingOn) return run();
  return trace.getTracer(TRACER_NAME).startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await run();
    } catch (err) {
      failSpan(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}

/** A vendor's or an endpoint's call: a client span named for the vendor, with its host and method. */
export function outboundCall<T>(
  vendor: string,
  target: { url: string | URL; method: string },
  run: (headers: Record<string, string>) => Promise<T>,
): Promise<T> {
  if (!tracingOn) return run({});
  const url = typeof target.url === 'string' ? new URL(target.url) : target.url;
  const attributes = {
    'peer.service': vendor,
    'server.address': url.hostname,
    'http.request.method': target.method,
  };
  return inSpan(`${target.method} ${vendor}`, attributes, () => run(traceHeaders()), SpanKind.CLIENT);
}

/** W3C trace context (`traceparent`, `tracestate`) of the active span, for a call that goes out. */
export function traceHeaders(): Record<string, string> {
  if (!tracingOn) return {};
  const headers: Record<string, string> = {};
  propagation.inject(context.active(), headers);
  return headers;
}

/** The active span's trace id, where tracing is on and a span is active. */
export function activeTraceId(): string | undefined {
  if (!tracingOn) return undefined;
  return trace.getActiveSpan()?.spanContext().traceId;
}
