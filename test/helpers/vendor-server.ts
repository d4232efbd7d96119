import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the vendor received it. */
export interface VendorRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  raw: string;
  /** the body, read as the vendor reads it: a form, or JSON */
  form: Record<string, string>;
  json: unknown;
}

export interface VendorAnswer {
  status: number;
  body?: unknown;
}

export type VendorBehaviour = (req: VendorRequest) => VendorAnswer;

/**
 * A messaging vendor's API on 127.0.0.1: each request is recorded and answered by the vendor's behaviour
 * (test/helpers/vendors.ts), which checks it as the vendor documents it. `failNext` answers the next requests
 * with a status of the test's choosing; `hang` holds them without an answer.
 */
export class VendorServer {
  readonly requests: VendorRequest[] = [];
  /** the requests answered with a 2xx: what the vendor took */
  readonly taken: VendorRequest[] = [];
  /** what each request taken was answered */
  readonly answers = new Map<VendorRequest, unknown>();
  /** the status the next requests are answered with instead (an outage), while above 0 */
  failWith = 0;
  /** headers the failing answers carry (a Retry-After) */
  failHeaders: Record<string, string> = {};
  /** every answer waits this long (a slow vendor) */
  delayMs = 0;
  /** every request is held unanswered (a vendor that hangs) */
  hang = false;
  /** answer only every other request with failWith (a vendor failing half its requests) */
  failHalf = false;
  /** the body of the newest success answered */
  lastAnswer: unknown;
  #server: Server | undefined;
  readonly #held = new Set<ServerResponse>();
  #count = 0;

  constructor(private readonly behaviour: VendorBehaviour) {}

  async start(): Promise<string> {
    this.#server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => {
        raw += c;
      });
      req.on('end', () => this.#answer(req, res, raw));
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  #answer(req: IncomingMessage, res: ServerResponse, raw: string) {
    const url = new URL(req.url ?? '/', 'http://vendor');
    let json: unknown;
    try {
      json = raw ? JSON.parse(raw) : undefined;
    } catch {}
    const request: VendorRequest = {
      method: req.method ?? '',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      raw,
      form: Object.fromEntries(new URLSearchParams(raw)),
      json,
    };
    this.requests.push(request);
    if (this.hang) {
      this.#held.add(res);
      return;
    }
    const failing = this.failWith > 0 && (!this.failHalf || ++this.#count % 2 === 1);
    const answer = failing
      ? { status: this.failWith, body: { error: 'unavailable' } }
      : this.behaviour(request);
    if (answer.status < 300) {
      this.lastAnswer = answer.body;
      this.taken.push(request);
      this.answers.set(request, answer.body);
    }
    const reply = () => {
      res.writeHead(answer.status, {
        'content-type': 'application/json',
        ...(failing ? this.failHeaders : {}),
      });
      res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    };
    if (this.delayMs > 0) setTimeout(reply, this.delayMs);
    else reply();
  }

  async close(): Promise<void> {
    for (const res of this.#held) res.destroy();
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }
}
