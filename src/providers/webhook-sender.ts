import http from 'node:http';
import https from 'node:https';
import { outboundCall } from '../observability/tracing.ts';
import { checkedTarget, type Resolver, systemResolver } from './outbound-addresses.ts';

export type { Resolver };

/** The receiver has 10 s to answer. */
export const ATTEMPT_TIMEOUT_MS = 10_000;

export interface Attempt {
  /** the HTTP status, when the receiver answered */
  statusCode: number | null;
  /** why the attempt failed, when it did ("" never) */
  error: string | null;
  latencyMs: number;
}

export interface SenderOptions {
  allowPrivateNetworks: boolean;
  timeoutMs?: number;
  /** DNS by default; tests map names to addresses of their choosing */
  resolve?: Resolver;
}

/**
 * POSTs one signed envelope (or a back-channel logout, P109, with its own headers), only to the addresses
 * the webhook URL rules allow (outbound-addresses.ts). No redirects are followed; 2xx alone delivers.
 */
export class WebhookSender {
  // No cap per host: the workers' slots bound the attempts in flight, and a request queued behind a
  // cap would spend its 10 s waiting for a socket, not for the receiver.
  readonly #agents = {
    'http:': new http.Agent({ keepAlive: true }),
    'https:': new https.Agent({ keepAlive: true }),
  };
  readonly #timeoutMs: number;
  readonly #resolve: Resolver;

  constructor(private readonly options: SenderOptions) {
    this.#timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
    this.#resolve = options.resolve ?? systemResolver;
  }

  async send(url: string, headers: Record<string, string>, body: string): Promise<Attempt> {
    const started = performance.now();
    const done = (statusCode: number | null, error: string | null): Attempt => ({
      statusCode,
      error,
      latencyMs: Math.round(performance.now() - started),
    });
    const target = new URL(url);
    const checked = await checkedTarget(target, this.options.allowPrivateNetworks, this.#resolve);
    if ('refused' in checked) return done(null, checked.refused);
    const { lookup } = checked;
    return outboundCall('webhook', { url: target, method: 'POST' }, (traceparent) =>
      this.#post(target, lookup, { ...headers, ...traceparent }, body, done),
    );
  }

  /** One POST of the body to the checked target, settled as an attempt whatever happens. */
  #post(
    target: URL,
    lookup: Parameters<typeof http.request>[1]['lookup'],
    headers: Record<string, string>,
    body: string,
    done: (statusCode: number | null, error: string | null) => Attempt,
  ): Promise<Attempt> {
    return new Promise<Attempt>((resolve) => {
      let settled = false;
      const settle = (statusCode: number | null, error: string | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(done(statusCode, error));
      };
      const request = (target.protocol === 'https:' ? https : http).request(
        target,
        {
          method: 'POST',
          agent: this.#agents[target.protocol as 'http:' | 'https:'],
          lookup,
          headers: {
            'user-agent': 'Callsign-Webhooks',
            ...headers,
            'content-length': Buffer.byteLength(body),
          },
        },
        (response) => {
          const status = response.statusCode ?? 0;
          // The body is not read for meaning, only drained, so the connection can be reused.
          response.resume();
          response.once('end', () => {
            if (status >= 200 && status < 300) settle(status, null);
            else if (status >= 300 && status < 400) settle(status, 'redirect not followed (D32)');
            else settle(status, `receiver answered ${status}`);
          });
          response.once('close', () => settle(status, 'the receiver closed the connection mid-answer'));
        },
      );
      // The whole exchange, connect to last byte, within the time allowed.
      const timer = setTimeout(() => {
        settle(null, `no answer within ${this.#timeoutMs} ms`);
        request.destroy();
      }, this.#timeoutMs);
      request.once('error', (err) =>
        settle(null, `${(err as NodeJS.ErrnoException).code ?? 'connection failed'}: ${err.message}`),
      );
      request.end(body);
    });
  }

  close(): void {
    for (const agent of Object.values(this.#agents)) agent.destroy();
  }
}
