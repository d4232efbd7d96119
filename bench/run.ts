import { randomInt } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { parsePhone } from '../src/domain/phone.ts';
import { postgresDatabase } from '../src/storage/db.ts';
import { pinHashCeiling, rs256Ceiling } from './ceilings.ts';
import { client, closedLoop, pacedLoop, percentile, type Result } from './load.ts';
import { startServer } from './server.ts';

// npm run bench: see README "Benchmarks". BENCH_DATABASE_URL runs the service on PostgreSQL, BENCH_SECONDS
// sets the length of each scenario.
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const DATABASE_URL = process.env.BENCH_DATABASE_URL;
const REDIS_URL = process.env.BENCH_REDIS_URL;
// PostgreSQL lets the service use every core (WEB_CONCURRENCY workers); PGlite belongs to one process.
const WORKERS = Number(process.env.BENCH_WEB_CONCURRENCY ?? (DATABASE_URL ? availableParallelism() : 1));
const CHAINS = 64;
const USERS = 8;
const PIN = '480715';

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

const limits = 'otp_send_phone,otp_send_address,signin_phone,signin_address,rest_user,rest_address'
  .split(',')
  .map((n) => `${n}=1000000000/60`)
  .join(',');

const users = phones(USERS);
const schema = DATABASE_URL ? await createSchema(DATABASE_URL) : undefined;
const server = await startServer({
  ...(DATABASE_URL && schema ? { DATABASE_URL: schema.url } : {}),
  ...(REDIS_URL ? { REDIS_URL, REDIS_KEY_PREFIX: `bench:${randomInt(1e9)}:` } : {}),
  RATE_LIMITS: limits,
  WEB_CONCURRENCY: String(WORKERS),
  TEST_PHONE_NUMBERS: users.map((p) => `${p}=000000`).join(','),
});
const http = client(server.port, CHAINS);

try {
  // One account per user, then enough sign-ins for a refresh-token chain per lane.
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
  const chains: string[] = [];
  for (let i = 0; i < CHAINS; i++) {
    const r = await http.post('/auth/signin', { phone: users[i % USERS], pin: PIN });
    chains.push(r.body.data.refresh_token);
  }
  const refreshStep = async (lane: number) => {
    const r = await http.post('/auth/refresh', { refresh_token: chains[lane] });
    if (r.status !== 200) return false;
    chains[lane] = r.body.data.refresh_token;
    return true;
  };
  const signinStep = async (lane: number) =>
    (await http.post('/auth/signin', { phone: users[lane % USERS], pin: PIN })).status === 200;

  process.stderr.write('measuring ceilings...\n');
  const rs256 = await rs256Ceiling(3);
  const pinHash = await pinHashCeiling(3);

  const rows: string[][] = [];
  const row = (name: string, r: Result, ceiling: number | null) => {
    const sorted = [...r.latenciesMs].sort((a, b) => a - b);
    const rps = r.requests / r.seconds;
    rows.push([
      name,
      rps.toFixed(0),
      percentile(sorted, 50).toFixed(1),
      percentile(sorted, 99).toFixed(1),
      ceiling ? (rps / ceiling).toFixed(2) : '-',
      String(r.errors),
    ]);
    return rps;
  };

  for (const [name, step, workers, ceiling] of [
    ['refresh', refreshStep, CHAINS, rs256],
    ['signin', signinStep, 16, pinHash],
  ] as const) {
    process.stderr.write(`${name}: warm-up, saturation, then half rate...\n`);
    await closedLoop(workers, 2, step);
    const saturation = row(
      `${name} (saturation, ${workers} in flight)`,
      await closedLoop(workers, SECONDS, step),
      ceiling,
    );
    row(
      `${name} (paced at half: ${(saturation / 2).toFixed(0)}/s)`,
      await pacedLoop(saturation / 2, SECONDS, CHAINS, step),
      null,
    );
  }

  const storage = `${DATABASE_URL ? 'PostgreSQL' : 'PGlite'}${REDIS_URL ? ' + Redis' : ''}`;
  const rss = server.peakRssMb();
  process.stdout.write(
    [
      `\nCallsign benchmark on ${storage} (${WORKERS} service process${WORKERS > 1 ? 'es' : ''}), ${SECONDS} s per scenario, load generator on 127.0.0.1`,
      `RS256 ceiling (all cores): ${rs256.toFixed(0)} signatures/s; PIN hash ceiling (all cores): ${pinHash.toFixed(1)} verifications/s`,
      '',
      '| scenario | requests/s | p50 ms | p99 ms | ratio to ceiling | errors |',
      '|---|---|---|---|---|---|',
      ...rows.map((r) => `| ${r.join(' | ')} |`),
      '',
      `peak RSS: ${rss.largest.toFixed(0)} MB in the largest service process, ${rss.total.toFixed(0)} MB in all`,
      '',
    ].join('\n'),
  );
} finally {
  await server.stop();
  await schema?.drop();
}
