import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * A real webhook receiver on 127.0.0.1 (or another loopback address): records every request and answers
 * with `respond`, 204 by default. A `respond` that returns nothing leaves the request hanging.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  respond: (req: ReceivedWebhook, res: ServerResponse) => number | undefined = () => 204;
  readonly #hanging = new Set<ServerResponse>();
  readonly #server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const got = { headers: req.headers, body, at: Date.now() };
      this.received.push(got);
      this.#notify();
      const status = this.respond(got, res);
      if (status === undefined) this.#hanging.add(res);
      else if (!res.headersSent) res.writeHead(status).end();
    });
  });
  #waiters: { count: number; resolve: () => void }[] = [];

  constructor(readonly host = '127.0.0.1') {}

  async start(path = '/hooks'): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, this.host, resolve));
    return `http://${this.host}:${this.port}${path}`;
  }

  get port() {
    return (this.#server.address() as AddressInfo).port;
  }

  /** The envelopes received, parsed. */
  envelopes() {
    return this.received.map((r) => JSON.parse(r.body));
  }

  /** Resolves once `count` requests have arrived in all. */
  waitFor(count: number): Promise<void> {
    return new Promise((resolve) => {
      this.#waiters.push({ count, resolve });
      this.#notify();
    });
  }

  /** Whether `count` requests in all have arrived within `ms` (false once that time has passed without). */
  arrivesWithin(count: number, ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([
      this.waitFor(count).then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), ms);
      }),
    ]).finally(() => clearTimeout(timer));
  }

  #notify() {
    this.#waiters = this.#waiters.filter((w) => {
      if (this.received.length < w.count) return true;
      w.resolve();
      return false;
    });
  }

  close(): Promise<void> {
    for (const res of this.#hanging) res.destroy();
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}
