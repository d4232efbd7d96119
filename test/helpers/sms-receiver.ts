import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSms {
  to: string;
  message: string;
}

/** A real SMS gateway on 127.0.0.1 for the `http` provider (D37): records what it is sent. */
export class SmsReceiver {
  readonly inbox: ReceivedSms[] = [];
  /** the status the next requests are answered with (500 simulates a failing gateway) */
  status = 202;
  #server: Server | undefined;
  /** requests that arrived, answered or held */
  received = 0;
  /** the W3C `traceparent` of each request that carried one */
  readonly traceparents: string[] = [];
  /** while true, requests are held unanswered (a slow vendor) until release() */
  holding = false;
  #held: Array<() => void> = [];

  /** Answers every held request and holds no more. */
  release(): void {
    this.holding = false;
    for (const answer of this.#held.splice(0)) answer();
  }

  async start(): Promise<string> {
    this.#server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => {
        raw += c;
      });
      req.on('end', () => {
        this.received++;
        if (typeof req.headers.traceparent === 'string') this.traceparents.push(req.headers.traceparent);
        const answer = () => {
          if (this.status < 300) this.inbox.push(JSON.parse(raw));
          res.writeHead(this.status).end();
        };
        if (this.holding) this.#held.push(answer);
        else answer();
      });
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/sms`;
  }

  messagesTo(phone: string): string[] {
    return this.inbox.filter((m) => m.to === phone).map((m) => m.message);
  }

  /** The code of the newest text to this phone. */
  lastCode(phone: string): string {
    const texts = this.messagesTo(phone);
    const code = /\b(\d{6})\b/.exec(texts.at(-1) ?? '')?.[1];
    if (!code) throw new Error(`no code was texted to ${phone}`);
    return code;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }
}
