import { randomInt } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parsePhone } from '../src/domain/phone.ts';
import { cpuPerRequest, cpuSnapshot } from './cpu-account.ts';
import { client } from './load.ts';
import { startServer } from './server.ts';

// What the SIM check costs a code verify: the service's CPU per PIN-reset code verify, without a provider
// and with an operator's service (SIM_CHECK_PROVIDER=http) that answers at once, each number once (so every
// verify is a lookup, never the reused answer). The provider runs in this process, not the service's.

const PIN = '480715';
const WARM_UP = 300;

/**
 * Distinct numbers for one run, none a number of the other scenarios: each scenario has its area code (the
 * request scenarios +1650, this one +1415).
 */
export function numbers(n: number, areaCode = '1415'): string[] {
  const out = new Set<string>();
  while (out.size < n) {
    try {
      out.add(parsePhone(`+${areaCode}${randomInt(2_000_000, 9_999_999)}`).e164);
    } catch {}
  }
  return [...out];
}

/** Service CPU ms per verify, on a service started with `env`. */
async function cpuPerVerify(count: number, limits: string, env: Record<string, string>): Promise<number> {
  const phones = numbers(WARM_UP + count);
  const server = await startServer({
    RATE_LIMITS: limits,
    TEST_PHONE_NUMBERS: phones.map((p) => `${p}=000000`).join(','),
    ...env,
  });
  try {
    const http = client(server.port, 4);
    for (const [i, phone] of phones.entries()) {
      await http.post('/auth/otp/send', { phone, purpose: 'signup' });
      const v = await http.post('/auth/otp/verify', { phone, code: '000000', purpose: 'signup' });
      await http.post('/auth/signup', {
        temp_token: v.body.data.temp_token,
        pin: PIN,
        handle: `sim${i}_${randomInt(1e9)}`,
      });
      await http.post('/auth/otp/send', { phone, purpose: 'pin_reset' });
    }
    // The first verifies warm the service's code paths up; the rest are measured.
    for (const phone of phones.slice(0, WARM_UP))
      await http.post('/auth/otp/verify', { phone, code: '000000', purpose: 'pin_reset' });
    const before = cpuSnapshot(server.pid);
    for (const phone of phones.slice(WARM_UP)) {
      const v = await http.post('/auth/otp/verify', { phone, code: '000000', purpose: 'pin_reset' });
      if (v.status !== 200) throw new Error(`verify answered ${v.status}: ${JSON.stringify(v.body)}`);
    }
    return cpuPerRequest(before, cpuSnapshot(server.pid), count, 0).service;
  } finally {
    await server.stop();
  }
}

/** The rows of the SIM check scenario. */
export async function simCheckBenchmark(count: number, limits: string): Promise<string[]> {
  const provider = createServer((request, response) => {
    request.resume();
    request.on('end', () =>
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"swapped":false,"last_swap_at":null,"recycled":null}'),
    );
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/check`;
    const none = await cpuPerVerify(count, limits, {});
    const checked = await cpuPerVerify(count, limits, {
      SIM_CHECK_PROVIDER: 'http',
      SIM_CHECK_HTTP_URL: url,
    });
    return [
      '',
      `| code verify, PIN reset (${count} numbers after ${WARM_UP} to warm up, each once) | service CPU ms per verify |`,
      '|---|---|',
      `| SIM_CHECK_PROVIDER=none | ${none.toFixed(2)} |`,
      `| SIM_CHECK_PROVIDER=http, answering at once | ${checked.toFixed(2)} |`,
      `| what the check adds | ${(checked - none).toFixed(2)} |`,
    ];
  } finally {
    provider.close();
  }
}
