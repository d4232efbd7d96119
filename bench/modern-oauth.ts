import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { cpuPerRequest, cpuSnapshot } from './cpu-account.ts';
import { client, percentile } from './load.ts';
import { oauthSteps } from './oauth-steps.ts';
import { type BenchServer, startServer } from './server.ts';

// What the modern OAuth features cost the service, one request at a time (a proof is made by the client, here
// in this process, so only the service's CPU is counted): an OAuth refresh of a DPoP-bound token against a
// bearer one on the same service, and a code exchange with ES256 tokens (access and ID) against RS256 ones,
// on two services alike but for ACCESS_TOKEN_ALG and the client's ID token algorithm.

const WARM_UP = 300;
const PIN = '480715';
const PHONE = '+16505550142';

export type Timed = { cpuMs: number; p50: number; p99: number };

/** `count` requests one after another after the warm-up: service CPU ms per request, and latency. */
export async function measure(server: BenchServer, count: number, step: () => Promise<void>): Promise<Timed> {
  for (let i = 0; i < WARM_UP; i++) await step();
  const times: number[] = [];
  const before = cpuSnapshot(server.pid);
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await step();
    times.push(performance.now() - start);
  }
  const cpuMs = cpuPerRequest(before, cpuSnapshot(server.pid), count, 0).service;
  times.sort((a, b) => a - b);
  return { cpuMs, p50: percentile(times, 0.5), p99: percentile(times, 0.99) };
}

/** A service with one account signed in on its hosted page, and a public client of this ID token algorithm. */
async function serviceWith(alg: 'RS256' | 'ES256', limits: string, adminToken: string) {
  const server = await startServer({
    RATE_LIMITS: limits,
    ADMIN_TOKEN: adminToken,
    ACCESS_TOKEN_ALG: alg,
    TEST_PHONE_NUMBERS: `${PHONE}=000000`,
  });
  const http = client(server.port, 4);
  await http.post('/auth/otp/send', { phone: PHONE, purpose: 'signup' });
  const v = await http.post('/auth/otp/verify', { phone: PHONE, code: '000000', purpose: 'signup' });
  await http.post('/auth/signup', { temp_token: v.body.data.temp_token, pin: PIN, handle: 'bench_modern' });
  const steps = await oauthSteps(http, adminToken, { phone: PHONE, pin: PIN }, 1, {
    id_token_signed_response_alg: alg,
  });
  return { server, http, steps };
}

/** A DPoP proof of `key` for a refresh at this service's token endpoint (as its discovery names it). */
async function refreshProof(key: { privateKey: CryptoKey; jwk: JWK }, tokenEndpoint: string) {
  return new SignJWT({ jti: randomUUID(), htm: 'POST', htu: tokenEndpoint })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.jwk })
    .setIssuedAt()
    .sign(key.privateKey);
}

/** Service CPU per code exchange, and per refresh bearer and DPoP-bound. */
async function onService(alg: 'RS256' | 'ES256', count: number, limits: string, adminToken: string) {
  const { server, http, steps } = await serviceWith(alg, limits, adminToken);
  try {
    const pool = await steps.mintCodes(WARM_UP + count, 4);
    const exchange = await measure(server, count, async () => {
      if (!(await steps.redeem(pool.pop() as string))) throw new Error('exchange failed');
    });
    if (alg !== 'RS256') return { exchange };
    let bearer = (await steps.redeem((await steps.mintCodes(1, 1))[0]))?.refresh_token as string;
    const refreshBearer = await measure(server, count, async () => {
      const r = await http.form('/oauth/token', steps.refreshFields(bearer));
      if (r.status !== 200) throw new Error(`refresh: ${r.text}`);
      bearer = JSON.parse(r.text).refresh_token;
    });
    const discovery = await http.send('GET', '/.well-known/openid-configuration');
    const tokenEndpoint = JSON.parse(discovery.text).token_endpoint as string;
    const pair = await generateKeyPair('ES256');
    const key = { privateKey: pair.privateKey, jwk: await exportJWK(pair.publicKey) };
    const [code] = await steps.mintCodes(1, 1);
    const first = await steps.redeem(code, { dpop: await refreshProof(key, tokenEndpoint) });
    if (!first) throw new Error('the DPoP-bound code exchange failed');
    let bound = first.refresh_token;
    const refreshDpop = await measure(server, count, async () => {
      const dpop = await refreshProof(key, tokenEndpoint);
      const r = await http.form('/oauth/token', steps.refreshFields(bound), { dpop });
      if (r.status !== 200) throw new Error(`DPoP refresh: ${r.text}`);
      bound = JSON.parse(r.text).refresh_token;
    });
    return { exchange, refreshBearer, refreshDpop };
  } finally {
    await server.stop();
  }
}

const row = (name: string, t: Timed) =>
  `| ${name} | ${t.cpuMs.toFixed(2)} | ${t.p50.toFixed(1)} | ${t.p99.toFixed(1)} |`;

/** The rows of the modern OAuth scenario. */
export async function modernOAuthBenchmark(count: number, limits: string, adminToken: string) {
  const rs = await onService('RS256', count, limits, adminToken);
  const es = await onService('ES256', count, limits, adminToken);
  const { refreshBearer, refreshDpop } = rs as Required<typeof rs>;
  return [
    '',
    `| one request at a time (${count} after ${WARM_UP} to warm up) | service CPU ms | p50 ms | p99 ms |`,
    '|---|---|---|---|',
    row('OAuth refresh, bearer token', refreshBearer),
    row('OAuth refresh, DPoP-bound token (a proof checked, its jti spent)', refreshDpop),
    row('code exchange, RS256 access and ID tokens', rs.exchange),
    row('code exchange, ES256 access and ID tokens', es.exchange),
    `| DPoP / bearer refresh; ES256 / RS256 exchange | ${(refreshDpop.cpuMs / refreshBearer.cpuMs).toFixed(2)}; ${(es.exchange.cpuMs / rs.exchange.cpuMs).toFixed(2)} | | |`,
  ];
}
