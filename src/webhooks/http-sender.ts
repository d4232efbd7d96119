import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { addressAllowed } from '../domain/webhook-addresses.ts';

/** D32: the receiver has 10 s to answer. */
export const ATTEMPT_TIMEOUT_MS = 10_000;

export interface Attempt {
  /** the HTTP status, when the receiver answered */
  statusCode: number | null;
  /** why the attempt failed, when it did ("" never) */
  error: string | null;
  latencyMs: number;
}

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export interface SenderOptions {
  allowPrivateNetworks: boolean;
  timeoutMs?: number;
  /** DNS by default; tests map names to addresses of their choosing */
  resolve?: Resolver;
}

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * POSTs one signed envelope (or a back-channel logout, P109, with its own headers). The host is
 * resolved here, every address is checked, and the connection goes to the checked addresses (the socket's
 * own lookup answers them), so a second DNS answer can't swap in another host between check and connect. No redirects are followed; 2xx alone delivers.
 */
export class WebhookSender {
  // No cap per host: the workers' slots bound the attempts in flight (P113), and a request queued behind a
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
    if (target.protocol === 'http:' && !this.options.allowPrivateNetworks)
      return done(null, 'refused: http is allowed only with WEBHOOK_ALLOW_PRIVATE_NETWORKS (D33)');
    const hostname = target.hostname.replace(/^\[(.*)\]$/, '$1');
    let addresses: { address: string; family: number }[];
    try {
      addresses = isIP(hostname)
        ? [{ address: hostname, family: isIP(hostname) }]
        : await this.#resolve(hostname);
    } catch (err) {
      return done(
        null,
        `DNS lookup failed: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      );
    }
    const refused = addresses.find((a) => !addressAllowed(a.address, this.options.allowPrivateNetworks));
    if (refused || addresses.length === 0)
      return done(
        null,
        `refused: ${hostname} resolves to ${refused?.address ?? 'nothing'}, a blocked address (D33)`,
      );

    const lookup: LookupFunction = (_host, opts, callback) => {
      if (opts.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    };
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
      // The whole exchange, connect to last byte, within the time allowed (D32).
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
