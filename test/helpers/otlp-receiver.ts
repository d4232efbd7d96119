import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// An OpenTelemetry collector's OTLP/HTTP trace endpoint on 127.0.0.1, as the protocol has it: `POST /v1/traces`
// with an ExportTraceServiceRequest in JSON, answered 200 with an empty ExportTraceServiceResponse. It keeps
// every span it is sent, flattened with its attributes as plain values.

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client */
  kind: number;
  /** when it started and ended, in ms since the epoch */
  startMs: number;
  endMs: number;
  attributes: Record<string, string | number | boolean>;
  /** the resource's attributes (service.name, ...) */
  resource: Record<string, string | number | boolean>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
type OtlpAttributes = Array<{ key: string; value: OtlpValue }> | undefined;

const plain = (attributes: OtlpAttributes) =>
  Object.fromEntries(
    (attributes ?? []).map(({ key, value }) => [
      key,
      value.stringValue ??
        (value.intValue !== undefined ? Number(value.intValue) : undefined) ??
        value.doubleValue ??
        value.boolValue ??
        '',
    ]),
  );

export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** the content types the exports came as */
  readonly contentTypes: string[] = [];
  #server: Server | undefined;

  /** Listens; answers the endpoint to give as OTEL_EXPORTER_OTLP_ENDPOINT. */
  async start(): Promise<string> {
    this.#server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk) => {
        raw += chunk;
      });
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== '/v1/traces') return res.writeHead(404).end();
        this.contentTypes.push(String(req.headers['content-type']));
        const body = JSON.parse(raw) as {
          resourceSpans: Array<{
            resource?: { attributes: OtlpAttributes };
            scopeSpans: Array<{ spans: Array<Record<string, unknown> & { attributes: OtlpAttributes }> }>;
          }>;
        };
        for (const rs of body.resourceSpans)
          for (const ss of rs.scopeSpans)
            for (const span of ss.spans)
              this.spans.push({
                traceId: String(span.traceId),
                spanId: String(span.spanId),
                parentSpanId: span.parentSpanId ? String(span.parentSpanId) : undefined,
                name: String(span.name),
                kind: Number(span.kind),
                startMs: Number(BigInt(String(span.startTimeUnixNano)) / 1000n) / 1000,
                endMs: Number(BigInt(String(span.endTimeUnixNano)) / 1000n) / 1000,
                attributes: plain(span.attributes),
                resource: plain(rs.resource?.attributes),
              });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.#server?.address() as AddressInfo).port}`;
  }

  /** The spans of one trace. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((s) => s.traceId === traceId);
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }
}
