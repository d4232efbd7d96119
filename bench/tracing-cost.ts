import { OtlpReceiver } from '../test/helpers/otlp-receiver.ts';
import { client } from './load.ts';
import { measure, type Timed } from './modern-oauth.ts';
import { startServer } from './server.ts';

// What OpenTelemetry traces cost the service: a PIN sign-in and a REST refresh, one request at a time, on a
// service without traces and on one exporting every span over OTLP/HTTP to a receiver in this process (as to
// a collector on the same host); the service's CPU per request, and latency. On BENCH_DATABASE_URL the service
// runs on PostgreSQL, as in production, so its CPU is its own and not the embedded database's too.

const PIN = '480715';

/** Service CPU and latency of sign-ins and refreshes on a service with these settings, for its own account. */
async function onService(env: Record<string, string>, count: number, limits: string, run: number) {
  const PHONE = `+1650555014${run}`;
  const server = await startServer({ RATE_LIMITS: limits, TEST_PHONE_NUMBERS: `${PHONE}=000000`, ...env });
  try {
    const http = client(server.port, 4);
    await http.post('/auth/otp/send', { phone: PHONE, purpose: 'signup' });
    const v = await http.post('/auth/otp/verify', { phone: PHONE, code: '000000', purpose: 'signup' });
    const up = await http.post('/auth/signup', {
      temp_token: v.body.data.temp_token,
      pin: PIN,
      handle: `bench_trace_${run}_${Date.now()}`,
    });
    const signIn = await measure(server, Math.ceil(count / 5), async () => {
      const r = await http.post('/auth/signin', { phone: PHONE, pin: PIN });
      if (r.status !== 200) throw new Error(`sign-in: ${JSON.stringify(r.body)}`);
    });
    let refreshToken = up.body.data.refresh_token as string;
    const refresh = await measure(server, count, async () => {
      const r = await http.post('/auth/refresh', { refresh_token: refreshToken });
      if (r.status !== 200) throw new Error(`refresh: ${JSON.stringify(r.body)}`);
      refreshToken = r.body.data.refresh_token;
    });
    return { signIn, refresh };
  } finally {
    await server.stop();
  }
}

const row = (name: string, off: Timed, on: Timed) =>
  `| ${name} | ${off.cpuMs.toFixed(2)} | ${on.cpuMs.toFixed(2)} | ${(((on.cpuMs - off.cpuMs) / off.cpuMs) * 100).toFixed(1)}% | ${off.p50.toFixed(1)} / ${on.p50.toFixed(1)} | ${off.p99.toFixed(1)} / ${on.p99.toFixed(1)} |`;

/** The rows of the tracing scenario. */
export async function tracingCostBenchmark(
  count: number,
  limits: string,
  /** a PostgreSQL database of its own for each service, or PGlite */
  database?: () => Promise<{ url: string; drop(): Promise<void> }>,
) {
  const receiver = new OtlpReceiver();
  const endpoint = await receiver.start();
  const onDatabase = async (env: Record<string, string>, run: number) => {
    const db = await database?.();
    try {
      return await onService({ ...env, ...(db ? { DATABASE_URL: db.url } : {}) }, count, limits, run);
    } finally {
      await db?.drop();
    }
  };
  try {
    const off = await onDatabase({}, 3);
    const on = await onDatabase({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint }, 4);
    return [
      '',
      `| one request at a time (after 300 to warm up) | service CPU ms, traces off | on | cost | p50 ms off / on | p99 ms off / on |`,
      '|---|---|---|---|---|---|',
      row(`PIN sign-in (${Math.ceil(count / 5)})`, off.signIn, on.signIn),
      row(`REST refresh (${count})`, off.refresh, on.refresh),
      `| spans the receiver was sent | ${receiver.spans.length} | | | | |`,
    ];
  } finally {
    await receiver.close();
  }
}
