import { Agent, request } from 'node:http';

// A small load generator for 127.0.0.1: keep-alive connections, closed loops (each worker waits for its
// answer) and a paced open loop that measures latency from the scheduled start (no coordinated omission).

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface Client {
  send(method: string, path: string, body?: string, headers?: Record<string, string>): Promise<Answer>;
  post(path: string, body: unknown): Promise<{ status: number; body: { data: Record<string, string> } }>;
  form(path: string, fields: Record<string, string>, headers?: Record<string, string>): Promise<Answer>;
}

export function client(port: number, sockets: number): Client {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  const send: Client['send'] = (method, path, body, headers = {}) =>
    new Promise((resolve, reject) => {
      const extra = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
      const req = request(
        { host: '127.0.0.1', port, path, method, agent, headers: { ...headers, ...extra } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c) => {
            text += c;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  return {
    send,
    post: async (path, body) => {
      const r = await send('POST', path, JSON.stringify(body), { 'content-type': 'application/json' });
      return { status: r.status, body: JSON.parse(r.text) };
    },
    form: (path, fields, headers = {}) =>
      send('POST', path, new URLSearchParams(fields).toString(), {
        'content-type': 'application/x-www-form-urlencoded',
        ...headers,
      }),
  };
}

export interface Result {
  requests: number;
  errors: number;
  seconds: number;
  latenciesMs: number[];
}

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** Each worker runs `step` back to back for `seconds`; step answers whether its request succeeded. */
export async function closedLoop(
  workers: number,
  seconds: number,
  step: (worker: number) => Promise<boolean>,
): Promise<Result> {
  const latenciesMs: number[] = [];
  let errors = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      while (performance.now() < end) {
        const t0 = performance.now();
        if (!(await step(w))) errors++;
        latenciesMs.push(performance.now() - t0);
      }
    }),
  );
  return { requests: latenciesMs.length, errors, seconds: (performance.now() - started) / 1000, latenciesMs };
}

/**
 * Starts requests at a fixed rate for `seconds` over `lanes` independent lanes (a lane is a token chain or
 * a user; it runs one request at a time). Latency counts from the scheduled start, so queueing shows.
 */
export async function pacedLoop(
  rate: number,
  seconds: number,
  lanes: number,
  step: (lane: number) => Promise<boolean>,
): Promise<Result> {
  const total = Math.max(1, Math.floor(rate * seconds));
  const interval = 1000 / rate;
  const latenciesMs: number[] = [];
  let errors = 0;
  const queues: Array<Promise<void>> = Array.from({ length: lanes }, () => Promise.resolve());
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    const scheduled = started + i * interval;
    const wait = scheduled - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const lane = i % lanes;
    queues[lane] = queues[lane].then(async () => {
      if (!(await step(lane))) errors++;
      latenciesMs.push(performance.now() - scheduled);
    });
  }
  await Promise.all(queues);
  return { requests: total, errors, seconds: (performance.now() - started) / 1000, latenciesMs };
}
