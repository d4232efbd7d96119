import { randomInt, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { parsePhone } from '../src/domain/phone.ts';
import { postgresDatabase } from '../src/storage/db.ts';
import { hostLine, pinHashCeiling, rs256Ceiling } from './ceilings.ts';
import { startFloor, startOidcProvider } from './comparison-servers.ts';
import { cpuPerRequest, cpuSnapshot } from './cpu-account.ts';
import { cpuPinning, parsePinning } from './cpu-pinning.ts';
import { type Client, client, percentile, type Result, type Step } from './load.ts';
import { modernOAuthBenchmark } from './modern-oauth.ts';
import { networkProofBenchmark } from './network-verification.ts';
import { oauthSteps } from './oauth-steps.ts';
import { PACED_SHARES, PACED_WARM_UP_SECONDS, pacedName, pacedRuns } from './paced.ts';
import { oidcProviderRefresh, pairedTails } from './peer-tail.ts';
import { roundTripCounts } from './round-trips.ts';
import {
  comparisonTable,
  jobTimes,
  largeDatabase,
  parseScale,
  SCALE_SECRETS,
  seededChains,
  seededPhones,
  sizeReport,
} from './scale.ts';
import { type BenchServer, startServer } from './server.ts';
import { simCheckBenchmark } from './sim-check.ts';
import { tracingCostBenchmark } from './tracing-cost.ts';
import { userImportBenchmark } from './user-import.ts';
import { webhookBenchmark } from './webhooks.ts';
import { requireWrk, type WrkLoop, wrk } from './wrk.ts';

// npm run bench: see README "Benchmarks". BENCH_DATABASE_URL runs the service on PostgreSQL, BENCH_SECONDS
// sets the length of each scenario.
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const DATABASE_URL = process.env.BENCH_DATABASE_URL;
const REDIS_URL = process.env.BENCH_REDIS_URL;
// BENCH_ONLY=refresh,signin,code,code-exchange,oauth-refresh,otp-send,oidc-provider,floor,webhooks,sim-check,network,modern-oauth,tracing,user-import,round-trips runs only the scenarios named (the
// webhook ones need BENCH_DATABASE_URL); without it, all of them.
// BENCH_SCALE=100k|1m runs the request scenarios again on a seeded database (bench/scale.ts).
const SCALE = parseScale(process.env.BENCH_SCALE);
// BENCH_PIN_CPUS=service:0,load:1 keeps the load generator on cores of its own (bench/cpu-pinning.ts).
const PINNING = cpuPinning(parsePinning(process.env.BENCH_PIN_CPUS));
PINNING.start();
const KEEP_DATA = ['1', 'true'].includes(process.env.BENCH_KEEP_DATA ?? '');
const ONLY = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
const runs = (scenario: string) => !ONLY || ONLY.includes(scenario);
/** Issue 6's target rate of events per second. */
const WEBHOOK_RATE = 1000;
// PostgreSQL lets the service use every core (WEB_CONCURRENCY workers); PGlite belongs to one process.
const WORKERS = Number(process.env.BENCH_WEB_CONCURRENCY ?? (DATABASE_URL ? availableParallelism() : 1));
// P90: requests in flight in the RS256 loops (and each loop's token chains). Saturation is where the cores are
// busy: at 64 the refresh loops left 4-6% of them idle, every request of a process waiting on its batch's
// commit at once; at 128, 2%, and more in flight adds latency but no rate beyond the host's drift.
const CHAINS = 128;
// Each scenario runs this long before it is measured. With 2 s, whichever scenario came first after the
// service started measured a service still warming up: REST refresh 0.28-0.31 of the RS256 ceiling first,
// 0.43 second (session 7); with 8 s it measured 0.43 first too.
const WARM_UP_SECONDS = 8;
// ... and then until each service process has answered this many: V8 optimizes a function once it has run
// enough, not after a time. A process's main-thread CPU per sign-in fell from 2.9 ms over its first 500
// sign-ins to 1.6 ms from its 2500th on (session 16); 8 s are some 500 sign-ins a process, or 12,000
// refreshes. The extra warm-up is capped, for a scenario far slower than these.
const WARM_UP_REQUESTS_PER_PROCESS = 2500;
const MAX_EXTRA_WARM_UP_SECONDS = 60;
/** A ceiling is what the machine can do: the best of a few tries, since one can lose time to the host's other guests. */
const CEILING_TRIES = 3;
const USERS = 8;
/** Issue 52's import: 100,000 users in under 2 minutes on PostgreSQL. */
const USERS_IMPORTED = Number(process.env.BENCH_IMPORT_USERS ?? 100_000);
const PIN = '480715';

/** A scenario's row: completed requests per second, latency, and HTTP errors. */
interface Summary {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** the ceiling measured around the loop */
  around?: number;
  /** the service's CPU milliseconds per request, at saturation */
  serviceCpuMs?: number;
}

/** A ceiling: the best of the tries at the start of the run, and a way to take one more try. */
interface Ceiling {
  best: number;
  measure: () => Promise<number>;
}

async function bestOf(tries: number, measure: () => Promise<number>) {
  const results: number[] = [];
  for (let i = 0; i < tries; i++) results.push(await measure());
  return { best: Math.max(...results), tries: results };
}

function phones(n: number): string[] {
  const out = new Set<string>();
  while (out.size < n) {
    try {
      out.add(parsePhone(`+1650${randomInt(2_000_000, 9_999_999)}`).e164);
    } catch {}
  }
  return [...out];
}

/** A schema of its own on the given server, so the benchmark leaves the database as it found it. */
async function createSchema(url: string) {
  const name = `bench_${randomInt(1e9)}`;
  const admin = postgresDatabase(url, { max: 1 });
  await admin.exec(`CREATE SCHEMA ${name}`);
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${name}`);
  return {
    url: u.toString(),
    async drop() {
      await admin.exec(`DROP SCHEMA ${name} CASCADE`);
      await admin.close();
    },
  };
}

const ADMIN_TOKEN = `bench-admin-${randomInt(1e9)}-0123456789abcdef`;
const limits =
  'otp_send_phone,otp_send_address,otp_send_prefix,signin_phone,signin_address,rest_user,rest_address,oauth_token_client,oauth_authorize_address'
    .split(',')
    .map((n) => `${n}=1000000000/60`)
    .join(',');

const users = phones(USERS);
/** Numbers that are not test numbers: their sends go through the SMS defence and to the gateway below. */
const sendPhones = phones(USERS).filter((phone) => !users.includes(phone));
/** An SMS gateway (SMS_PROVIDER=http) that answers at once, so the otp-send loop measures the service. */
const gateway = createServer((request, response) => {
  request.resume();
  request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
});
await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
gateway.unref();
const schema = DATABASE_URL ? await createSchema(DATABASE_URL) : undefined;
/** The service on the given database (its own schema on BENCH_DATABASE_URL, or PGlite). */
const startService = async (databaseUrl: string | undefined, env: Record<string, string> = {}) => {
  const started = await startServer({
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...(REDIS_URL ? { REDIS_URL, REDIS_KEY_PREFIX: `bench:${randomInt(1e9)}:` } : {}),
    RATE_LIMITS: limits,
    ADMIN_TOKEN,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', // the benchmark's receiver is on 127.0.0.1 (D33)
    WEB_CONCURRENCY: String(WORKERS),
    TEST_PHONE_NUMBERS: users.map((p) => `${p}=000000`).join(','),
    SMS_PROVIDER: 'http',
    SMS_HTTP_URL: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/send`,
    // Nobody enters the otp-send loop's codes: the breaker's check runs, but it must not open.
    SMS_BREAKER: 'min_sends=1000000000',
    ...env,
  });
  PINNING.server(started.pid);
  return started;
};
const server = await startService(schema?.url);
const http = client(server.port, CHAINS);

/** Where the request scenarios run: a service, and the accounts and token chains its loops use. */
interface Target {
  server: BenchServer;
  http: Client;
  /** the accounts the sign-in loops use (all with PIN) */
  signinPhones: string[];
  /** refresh chains of the first-party client, new for each loop */
  chains: () => Promise<string[]>;
  /** whether the comparisons with other servers run (once per benchmark) */
  comparisons: boolean;
}

/** The empty database's target: a few accounts signed up now, each loop's chains signed in now. */
async function emptyTarget(): Promise<Target> {
  for (const phone of users) {
    await http.post('/auth/otp/send', { phone, purpose: 'signup' });
    const v = await http.post('/auth/otp/verify', { phone, code: '000000', purpose: 'signup' });
    const s = await http.post('/auth/signup', {
      temp_token: v.body.data.temp_token,
      pin: PIN,
      handle: `bench_${phone.slice(-7)}`,
    });
    if (s.status !== 200) throw new Error(`sign-up failed: ${JSON.stringify(s.body)}`);
  }
  const chains = async () => {
    const fresh: string[] = [];
    for (let i = 0; i < CHAINS; i++) {
      const r = await http.post('/auth/signin', { phone: users[i % USERS], pin: PIN });
      fresh.push(r.body.data.refresh_token);
    }
    return fresh;
  };
  return { server, http, signinPhones: users, chains, comparisons: true };
}

/** The REST and OAuth scenarios and the oidc-provider comparison; answers the lines of the summary. */
async function requestScenarios(rows: string[][], target: Target): Promise<string[]> {
  requireWrk();
  const { server, http, signinPhones } = target;
  // A closed loop cut off at its end leaves up to one chain per connection with its last token used and its
  // successor unread, so each loop (and each paced run) starts with chains of its own.
  const chains: string[] = [];
  const freshChains = async () => {
    chains.splice(0, chains.length, ...(await target.chains()));
    return chains;
  };
  const refreshStep = async (lane: number) => {
    const r = await http.post('/auth/refresh', { refresh_token: chains[lane] });
    if (r.status !== 200) return false;
    chains[lane] = r.body.data.refresh_token;
    return true;
  };
  const oauth = await oauthSteps(http, ADMIN_TOKEN, { phone: signinPhones[0], pin: PIN }, CHAINS);
  const signinStep = async (lane: number) =>
    (await http.post('/auth/signin', { phone: signinPhones[lane % signinPhones.length], pin: PIN }))
      .status === 200;

  process.stderr.write('measuring ceilings...\n');
  const tryRs256 = () => rs256Ceiling(2);
  const tryPinHash = () => pinHashCeiling(2);
  const rs256 = await bestOf(CEILING_TRIES, tryRs256);
  const pinHash = await bestOf(CEILING_TRIES, tryPinHash);
  const rs256Yardstick: Ceiling = { best: rs256.best, measure: tryRs256 };
  const hashYardstick: Ceiling = { best: pinHash.best, measure: tryPinHash };

  /**
   * A closed loop at saturation (wrk) after a warm-up of its own, with the CPU each completed request cost
   * the service's side and everyone else. `loop` answers what a loop sends, with inputs of its own. The
   * host's speed drifts over minutes (the PIN hash tries of one run: 58, 69.5, 68.5 a second; of another,
   * 79-87), so the ceiling measured at the start is a loose yardstick for a scenario run minutes later: the
   * loop is also measured against one try of its ceiling just before it and one just after, the higher.
   */
  const cpuRows: string[][] = [];
  const saturate = async (
    name: string,
    target: { port: number; pid: number; processes: number },
    connections: number,
    loop: () => Promise<WrkLoop>,
    ceiling: Ceiling,
  ): Promise<Summary> => {
    const warm = await wrk(target.port, connections, WARM_UP_SECONDS, await loop());
    const missing = WARM_UP_REQUESTS_PER_PROCESS * target.processes - warm.requests;
    if (missing > 0) {
      const seconds = Math.ceil(missing / (warm.requests / warm.seconds));
      await wrk(target.port, connections, Math.min(MAX_EXTRA_WARM_UP_SECONDS, seconds), await loop());
    }
    const measured = await loop();
    const tryBefore = await ceiling.measure();
    const before = cpuSnapshot(target.pid);
    const r = await wrk(target.port, connections, SECONDS, measured);
    // What a scenario completes: a refresh, a sign-in, an exchange (its authorization included).
    const completed = measured.mode === 'list' ? r.requests - r.errors : r.answered;
    const c = cpuPerRequest(before, cpuSnapshot(target.pid), completed, r.cpuMs);
    const around = Math.max(tryBefore, await ceiling.measure());
    cpuRows.push([
      name,
      ...[c.service, c.serviceMainThreads, c.service - c.serviceMainThreads].map((v) => v.toFixed(2)),
      ...[c.postgres, c.redis, c.loadGenerator, c.machine].map((v) => v.toFixed(2)),
      `${(100 * c.idleShare).toFixed(1)}%`,
    ]);
    return {
      rps: completed / r.seconds,
      p50: r.p50,
      p99: r.p99,
      errors: r.errors,
      around,
      serviceCpuMs: c.service,
    };
  };

  /** ratio = signatures (or hashes) the scenario makes per second, over what all cores can make */
  const row = (name: string, r: Summary, ceiling: Ceiling | null, perRequest = 1) => {
    const ratio = (of: number) => ((r.rps * perRequest) / of).toFixed(2);
    rows.push([
      name,
      r.rps.toFixed(0),
      r.p50.toFixed(1),
      r.p99.toFixed(1),
      ceiling ? ratio(ceiling.best) : '-',
      r.around ? `${ratio(r.around)} (${r.around.toFixed(r.around < 1000 ? 1 : 0)}/s)` : '-',
      String(r.errors),
    ]);
    return r.rps;
  };
  /** A paced run's row: latency from each request's scheduled start. */
  const paced = (r: Result): Summary => {
    const sorted = [...r.latenciesMs].sort((a, b) => a - b);
    return {
      rps: (r.requests - r.errors) / r.seconds,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      errors: r.errors,
    };
  };

  const form = 'application/x-www-form-urlencoded';
  const service = { port: server.port, pid: server.pid, processes: WORKERS };
  const pacedRun = pacedRuns(service.pid, SECONDS, CHAINS);
  const scenarios: Array<{
    key: string;
    name: string;
    loop: () => Promise<WrkLoop>;
    /** the paced run's step, and what it needs first */
    step: Step;
    beforePaced?: () => Promise<unknown>;
    connections: number;
    ceiling: Ceiling;
    /** signatures (or hashes) per completed request */
    perRequest: number;
  }> = [
    {
      key: 'refresh',
      name: 'refresh',
      loop: async () => ({
        mode: 'chain',
        path: '/auth/refresh',
        body: '{"refresh_token":"{}"}',
        inputs: await freshChains(),
      }),
      step: refreshStep,
      beforePaced: freshChains,
      connections: CHAINS,
      ceiling: rs256Yardstick,
      perRequest: 1,
    },
    {
      key: 'signin',
      name: 'signin',
      loop: async () => ({
        mode: 'list',
        path: '/auth/signin',
        inputs: signinPhones.map((phone) => JSON.stringify({ phone, pin: PIN })),
      }),
      step: signinStep,
      connections: 16,
      ceiling: hashYardstick,
      perRequest: 1,
    },
    {
      key: 'code',
      name: 'oauth code exchange (authorize + token, 2 signatures)',
      loop: async () => ({
        mode: 'authorize',
        path: '/oauth/token',
        body: oauth.wrk.exchangeBody,
        contentType: form,
        inputs: [],
        authorize: oauth.wrk.authorize,
      }),
      step: oauth.codeStep,
      connections: CHAINS,
      ceiling: rs256Yardstick,
      perRequest: 2,
    },
    {
      key: 'oauth-refresh',
      name: 'oauth refresh',
      loop: async () => ({
        mode: 'chain',
        path: '/oauth/token',
        body: oauth.wrk.refreshBody,
        contentType: form,
        inputs: await oauth.freshChains(),
      }),
      step: oauth.refreshStep,
      beforePaced: oauth.freshChains,
      connections: CHAINS,
      ceiling: rs256Yardstick,
      perRequest: 1,
    },
    {
      key: 'otp-send',
      name: 'otp send (numbers that are not test numbers, a gateway that answers at once)',
      loop: async () => ({
        mode: 'list',
        path: '/auth/otp/send',
        inputs: sendPhones.map((phone) => JSON.stringify({ phone, purpose: 'signup' })),
      }),
      step: async (lane) =>
        (
          await http.post('/auth/otp/send', {
            phone: sendPhones[lane % sendPhones.length],
            purpose: 'signup',
          })
        ).status === 200,
      connections: 16,
      ceiling: rs256Yardstick,
      perRequest: 0, // no signature: its ratio is 0; the CPU per send is what counts
    },
  ];
  for (const s of scenarios) {
    if (!runs(s.key)) continue;
    process.stderr.write(`${s.name}: warm-up, saturation, then paced...\n`);
    const saturated = await saturate(s.name, service, s.connections, s.loop, s.ceiling);
    const saturation = row(
      `${s.name} (saturation, ${s.connections} in flight)`,
      saturated,
      s.ceiling,
      s.perRequest,
    );
    for (const share of PACED_SHARES) {
      await s.beforePaced?.();
      const name = pacedName(s.name, saturation, share);
      row(name, paced(await pacedRun.run(name, saturation * share, s.step, saturated.serviceCpuMs)), null);
    }
  }

  // Issue 4's "authorization-code exchange" itself: POST /oauth/token on codes minted beforehand, so the
  // timed loop holds no authorization request. A code lives 60 s, so each pool is minted just before its
  // loop, sized from the authorize + exchange rate (the exchange alone is faster: 2-2.5 times since P85);
  // each code is sent once, and a loop that has used up its pool sends a code that was never issued.
  if (runs('code-exchange')) {
    process.stderr.write('oauth code exchange alone: minting codes, warm-up, saturation, then paced...\n');
    const name = 'oauth code exchange alone (token endpoint, codes minted beforehand, 2 signatures)';
    const combined = Number(rows.find((r) => r[0].startsWith('oauth code exchange (authorize'))?.[1]);
    const estimate = 4 * (combined || 1000);
    const pool = (rate: number, seconds: number) => oauth.mintCodes(Math.ceil(rate * seconds), CHAINS);
    const saturated = await saturate(
      name,
      service,
      CHAINS,
      async () => ({
        mode: 'list',
        path: '/oauth/token',
        contentType: form,
        inputs: (await pool(estimate, SECONDS)).map((code) => oauth.wrk.exchangeBody.replace('{}', code)),
        exhausted: oauth.wrk.exchangeBody.replace('{}', 'never-issued'),
      }),
      rs256Yardstick,
    );
    const saturation = row(`${name} (saturation, ${CHAINS} in flight)`, saturated, rs256Yardstick, 2);
    for (const share of PACED_SHARES) {
      // Twice what the rate uses over the warm-up and the measured seconds together.
      const pacedPool = await pool(2 * share * saturation, SECONDS + PACED_WARM_UP_SECONDS);
      const paceName = pacedName(name, saturation, share);
      const step = oauth.exchangeStep(pacedPool);
      row(
        paceName,
        paced(await pacedRun.run(paceName, saturation * share, step, saturated.serviceCpuMs)),
        null,
      );
    }
  }

  // The same refresh scenario against oidc-provider, in a process of its own (issue 4's comparison).
  const comparison: string[] = [];
  if (runs('oidc-provider') && target.comparisons) {
    process.stderr.write('oidc-provider refresh: warm-up, saturation...\n');
    const other = await startOidcProvider(CHAINS);
    PINNING.server(other.pid);
    const theirRate = row(
      `oidc-provider refresh (saturation, ${CHAINS} in flight)`,
      await saturate(
        'oidc-provider refresh',
        { ...other, processes: 1 },
        CHAINS,
        async () => ({
          mode: 'chain',
          path: '/token',
          body: 'grant_type=refresh_token&client_id=bench&refresh_token={}',
          contentType: form,
          inputs: await other.tokens(),
        }),
        rs256Yardstick,
      ),
      rs256Yardstick,
    );
    comparison.push(`oidc-provider peak RSS: ${other.peakRssMb().toFixed(0)} MB`);
    if (runs('oauth-refresh')) {
      process.stderr.write('OAuth refresh of both, paced at half of oidc-provider’s saturation rate...\n');
      const chains: string[] = [];
      const tails = await pairedTails({
        offered: theirRate / 2,
        seconds: SECONDS,
        lanes: CHAINS,
        callsign: { pid: service.pid, step: oauth.refreshStep, before: oauth.freshChains },
        oidcProvider: {
          pid: other.pid,
          step: oidcProviderRefresh(other.port, CHAINS, chains),
          before: async () => chains.splice(0, chains.length, ...(await other.tokens())),
        },
      });
      comparison.push(...tails);
    }
    other.stop();
    const ourRate = Number(rows.find((r) => r[0].startsWith('oauth refresh (saturation'))?.[1]);
    if (ourRate)
      comparison.push(
        `OAuth refresh, Callsign / oidc-provider: ${(ourRate / theirRate).toFixed(2)} (oidc-provider keeps its tokens in memory, one process)`,
      );
  }
  // The floor: the stack alone (Fastify, one signature made as the service makes it) with no storage, in as
  // many processes.
  if (runs('floor') && target.comparisons) {
    process.stderr.write('floor: warm-up, saturation...\n');
    const floor = await startFloor(WORKERS);
    PINNING.server(floor.pid);
    row(
      `floor: Fastify + one RS256 signature, no storage (saturation, ${CHAINS} in flight)`,
      await saturate(
        'floor',
        { ...floor, processes: WORKERS },
        CHAINS,
        async () => ({
          mode: 'list',
          path: '/token',
          // as long as one of ours: a session id, a generation, a secret and a tag
          inputs: [
            JSON.stringify({ refresh_token: `${randomUUID()}.0.${'s'.repeat(43)}.${'t'.repeat(22)}` }),
          ],
        }),
        rs256Yardstick,
      ),
      rs256Yardstick,
    );
    floor.stop();
  }
  const rss = server.peakRssMb();
  return [
    `RS256 ceiling (all cores, best of ${CEILING_TRIES} x 2 s): ${rs256.best.toFixed(0)} signatures/s (tries ${rs256.tries.map((t) => t.toFixed(0)).join(', ')}), ${((availableParallelism() * 1000) / rs256.best).toFixed(2)} CPU ms per signature`,
    `PIN hash ceiling (all cores, best of ${CEILING_TRIES} x 2 s): ${pinHash.best.toFixed(1)} verifications/s (tries ${pinHash.tries.map((t) => t.toFixed(1)).join(', ')})`,
    '',
    "| scenario | requests/s | p50 ms | p99 ms | ratio to the run's ceiling | ratio to the ceiling around it (that ceiling) | errors |",
    '|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
    '| CPU ms per request, at saturation | service | its main threads | its other threads (PIN hashes, V8 helpers) | PostgreSQL | Redis | load generator | all cores | cores idle |',
    '|---|---|---|---|---|---|---|---|---|',
    ...cpuRows.map((r) => `| ${r.join(' | ')} |`),
    '',
    ...pacedRun.table(),
    '',
    `peak RSS: ${rss.largest.toFixed(0)} MB in the largest service process, ${rss.total.toFixed(0)} MB in all`,
    ...comparison,
  ];
}

/**
 * The request scenarios again, on the seeded database (BENCH_SCALE), on accounts and token chains picked at
 * random among the seeded ones; then the two side by side, the database's size and the hourly jobs' times.
 */
async function scaledRun(emptyRows: string[][]): Promise<string[]> {
  if (!DATABASE_URL || !SCALE) throw new Error('BENCH_SCALE needs BENCH_DATABASE_URL');
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const large = await largeDatabase(DATABASE_URL, SCALE, KEEP_DATA, PIN, log);
  const service = await startService(large.url, SCALE_SECRETS);
  try {
    const largeRows: string[][] = [];
    const lines = await requestScenarios(largeRows, {
      server: service,
      http: client(service.port, CHAINS),
      signinPhones: seededPhones(SCALE, 1000),
      chains: () => seededChains(large, CHAINS),
      comparisons: false,
    });
    const seed =
      large.seedSeconds === undefined ? 'kept from an earlier run' : `${large.seedSeconds.toFixed(0)} s`;
    return [
      '',
      `On a database seeded with ${SCALE.toLocaleString('en')} accounts (seed: ${seed}):`,
      '',
      ...comparisonTable(emptyRows, largeRows),
      '',
      ...lines,
      '',
      ...(await sizeReport(large.db)),
      '',
      ...(await jobTimes(large.db)),
    ];
  } finally {
    await service.stop();
    await large.close();
  }
}

try {
  const rows: string[][] = [];
  const ownServers = ['webhooks', 'sim-check', 'network', 'tracing', 'user-import', 'round-trips'];
  const requests = !ONLY?.every((s) => ownServers.includes(s));
  const lines = requests ? await requestScenarios(rows, await emptyTarget()) : [];
  if (SCALE && requests) lines.push(...(await scaledRun(rows)));
  // Every run prints what each hot request asks of the database and Redis, so that a change that adds a
  // round trip shows.
  process.stderr.write('round trips: each hot request alone, as the service counts them...\n');
  const roundTripSchema = DATABASE_URL ? await createSchema(DATABASE_URL) : undefined;
  try {
    lines.push(...(await roundTripCounts(limits, ADMIN_TOKEN, roundTripSchema, REDIS_URL)));
  } finally {
    await roundTripSchema?.drop();
  }
  if (runs('sim-check')) {
    process.stderr.write('sim-check: PIN-reset code verifies without and with a SIM check provider...\n');
    lines.push(...(await simCheckBenchmark(500, limits)));
  }
  if (runs('modern-oauth')) {
    process.stderr.write('modern-oauth: refresh bearer and DPoP-bound, code exchange RS256 and ES256...\n');
    lines.push(...(await modernOAuthBenchmark(1000, limits, ADMIN_TOKEN)));
  }
  if (runs('tracing')) {
    process.stderr.write('tracing: sign-in and refresh with OpenTelemetry traces off and on...\n');
    const database = DATABASE_URL ? () => createSchema(DATABASE_URL) : undefined;
    lines.push(...(await tracingCostBenchmark(1000, limits, database)));
  }
  if (runs('network')) {
    process.stderr.write('network: numbers proven silently by a CAMARA operator, and by a code...\n');
    lines.push(...(await networkProofBenchmark(500, limits)));
  }
  if (runs('user-import')) {
    process.stderr.write(
      `user-import: ${USERS_IMPORTED} users by the command, then the same file again...\n`,
    );
    lines.push(...(await userImportBenchmark(server.port, ADMIN_TOKEN, USERS_IMPORTED)));
  }
  if (runs('webhooks') && DATABASE_URL && schema) {
    process.stderr.write(
      `webhooks: a backlog of ${WEBHOOK_RATE * SECONDS} events, then ${WEBHOOK_RATE}/s for ${SECONDS} s...\n`,
    );
    const h = await webhookBenchmark(http, ADMIN_TOKEN, schema.url, SECONDS, WEBHOOK_RATE);
    lines.push(
      '',
      '| webhooks (2xx receiver on 127.0.0.1) | events | events/s | lag p50 ms | lag p99 ms | lag max ms |',
      '|---|---|---|---|---|---|',
      `| backlog drained (written in transactions of 500) | ${h.backlog.events} | ${h.backlog.perSecond.toFixed(0)} | - | - | - |`,
      `| paced, one event per transaction at ${h.paced.rate}/s | ${h.paced.events} | ${h.paced.rate} | ${h.paced.lagP50Ms} | ${h.paced.lagP99Ms} | ${h.paced.maxLagMs} |`,
    );
  } else if (runs('webhooks'))
    lines.push('', 'webhooks: skipped (the scenario writes events into PostgreSQL: set BENCH_DATABASE_URL)');
  const storage = `${DATABASE_URL ? 'PostgreSQL' : 'PGlite'}${REDIS_URL ? ' + Redis' : ''}`;
  process.stdout.write(
    [
      `\nCallsign benchmark on ${storage} (${WORKERS} service process${WORKERS > 1 ? 'es' : ''}), ${SECONDS} s per scenario, load generator on 127.0.0.1`,
      hostLine(),
      `cores: ${PINNING.describe()}`,
      ...lines,
      '',
    ].join('\n'),
  );
} finally {
  await server.stop();
  await schema?.drop();
  PINNING.release();
}
