import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// What the local fakes of the silent checks' vendors (a CAMARA operator, Vonage, Twilio) share: a server on 127.0.0.1 that records every
// request with what was wrong with it, knows a device by the address it connects from (an address in `phones`
// is a phone on a mobile data network holding that number; any other is on Wi-Fi), and can fail or hang the
// call that finishes a check.

export interface Seen {
  method: string;
  path: string;
  /** what was wrong with the request, as the vendor documents it; empty when nothing */
  problem: string;
  /** the `x-correlator` a CAMARA API request carried */
  correlator?: string;
}

export interface Incoming {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  raw: string;
  /** the connecting device's address, as written ("127.0.0.2") */
  address: string;
  seen: Seen;
}

export abstract class FakeNetworkVendor {
  /** the device's address -> the number its SIM holds */
  readonly phones = new Map<string, string>();
  readonly seen: Seen[] = [];
  /** the call that finishes a check answers this status instead (a vendor in trouble) */
  failCheckWith = 0;
  /** the call that finishes a check is never answered (a vendor that hangs) */
  hangCheck = false;
  url = '';
  #server: Server | undefined;

  constructor(protected readonly now: () => number = Date.now) {}

  protected abstract answer(incoming: Incoming): unknown;

  async start(): Promise<string> {
    this.#server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => {
        raw += c;
      });
      req.on('end', () => {
        const url = new URL(req.url ?? '/', this.url);
        const seen: Seen = { method: req.method ?? '', path: url.pathname, problem: '' };
        this.seen.push(seen);
        const address = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
        Promise.resolve(this.answer({ req, res, url, raw, address, seen })).catch((err: Error) =>
          send(res, 500, { error: err.message }),
        );
      });
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this.url;
  }

  close(): Promise<void> {
    this.#server?.closeAllConnections();
    return new Promise((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }

  /** The requests the vendor found wrong, as "path: problem". */
  problems(): string[] {
    return this.seen.filter((s) => s.problem).map((s) => `${s.path}: ${s.problem}`);
  }
}

export function send(res: ServerResponse, status: number, body: object, type = 'application/json') {
  res.writeHead(status, { 'content-type': type }).end(JSON.stringify(body));
}

/** A request refused: the problem recorded, the vendor's answer sent. */
export function refuse(i: Incoming, status: number, body: object, problem: string, type?: string) {
  i.seen.problem = problem;
  send(i.res, status, body, type);
}
