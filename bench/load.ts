import { type Dispatcher, Pool } from 'undici';

// The set-up's requests and the paced open loop, which measures latency from each request's scheduled start
// (no coordinated omission), over keep-alive connections to 127.0.0.1. undici, not node:http: it costs the
// shared cores about half as much CPU per request (55 against 100 µs measured here). The closed loops at
// saturation run in wrk (bench/wrk.ts), which costs a quarter of undici's.

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
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: sockets });
  const send: Client['send'] = async (method, path, body, headers = {}) => {
    const res = await pool.request({
      method: method as Dispatcher.HttpMethod,
      path,
      body,
      headers,
    });
    return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
  };
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

/** One request of a scenario on a lane (a worker, a token chain); answers whether it succeeded. */
export type Step = (lane: number) => Promise<boolean>;

/**
 * Starts requests at a fixed rate for `seconds` over `lanes` independent lanes (a lane is a token chain or
 * a user; it runs one request at a time). Latency counts from the scheduled start, so queueing shows.
 */
export async function pacedLoop(rate: number, seconds: number, lanes: number, step: Step): Promise<Result> {
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
