import { FakeOperator } from '../test/helpers/fake-operator.ts';
import { SmsReceiver } from '../test/helpers/sms-receiver.ts';
import { cpuPerRequest, cpuSnapshot } from './cpu-account.ts';
import { type Client, client } from './load.ts';
import { type BenchServer, startServer } from './server.ts';
import { numbers } from './sim-check.ts';

// What a silent proof of a number costs the service against a code's: the service's CPU per proof, a CAMARA
// check (start, the device's return to the callback with the operator's code exchanged and /verify called,
// complete) against a code (send through an HTTP SMS gateway, verify), each number once. The operator and the
// gateway run in this process, not the service's; the device connects from 127.0.0.2, a phone on the
// operator's data network.

const WARM_UP = 200;
const PHONE_ADDRESS = '127.0.0.2';
const CLIENT_ID = 'callsign-bench';

/** A silent proof of `phone`: the start, the device through the operator and back, the completion. */
async function silentProof(http: Client, operator: FakeOperator, redirects: string[], phone: string) {
  operator.phones.set(PHONE_ADDRESS, phone);
  const started = await http.post('/auth/network/start', { phone, purpose: 'signup' });
  if (started.body.data?.method !== 'network') throw new Error(`start: ${JSON.stringify(started.body)}`);
  const redirect = new URL(started.body.data.url).searchParams.get('redirect_uri') ?? '';
  if (!redirects.includes(redirect)) redirects.push(redirect);
  const sent = await FakeOperator.follow(started.body.data.url, PHONE_ADDRESS);
  const back = new URL(sent.location ?? '');
  await http.send('GET', `${back.pathname}${back.search}`);
  const done = await http.post('/auth/network/complete', {
    verification_id: started.body.data.verification_id,
  });
  if (done.body.data?.method !== 'network') throw new Error(`complete: ${JSON.stringify(done.body)}`);
}

/** A code proof of `phone`: the send, the code read at the gateway, the verify. */
async function codeProof(http: Client, sms: SmsReceiver, phone: string) {
  const sent = await http.post('/auth/otp/send', { phone, purpose: 'signup' });
  if (sent.status !== 200) throw new Error(`send: ${JSON.stringify(sent.body)}`);
  let code: string | undefined;
  for (let waited = 0; !code && waited < 5000; waited += 5) {
    code = /\d{6}/.exec(sms.inbox.findLast((m) => m.to === phone)?.message ?? '')?.[0];
    if (!code) await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const verified = await http.post('/auth/otp/verify', { phone, code, purpose: 'signup' });
  if (verified.status !== 200) throw new Error(`verify: ${JSON.stringify(verified.body)}`);
}

/** Service CPU ms per proof of each kind, `count` of each after the warm-up. */
async function cpuPerProof(server: BenchServer, count: number, prove: (phone: string) => Promise<void>) {
  const phones = numbers(WARM_UP + count, '1212');
  for (const phone of phones.slice(0, WARM_UP)) await prove(phone);
  const before = cpuSnapshot(server.pid);
  for (const phone of phones.slice(WARM_UP)) await prove(phone);
  return cpuPerRequest(before, cpuSnapshot(server.pid), count, 0).service;
}

/** The rows of the silent-proof scenario. */
export async function networkProofBenchmark(count: number, limits: string): Promise<string[]> {
  const sms = new SmsReceiver();
  const smsUrl = await sms.start();
  const redirects: string[] = [];
  const holder: { port?: number } = {};
  const operator = new FakeOperator({
    clientId: CLIENT_ID,
    redirectUris: redirects,
    jwk: async () =>
      (
        await (
          await fetch(`http://127.0.0.1:${holder.port}/.well-known/network-verification-jwks.json`)
        ).json()
      ).keys[0],
  });
  const issuer = await operator.start();
  const server = await startServer({
    RATE_LIMITS: limits,
    SMS_PROVIDER: 'http',
    SMS_HTTP_URL: smsUrl,
    NETWORK_VERIFICATION_PROVIDER: 'camara',
    NETWORK_VERIFICATION_CAMARA_ISSUER: issuer,
    NETWORK_VERIFICATION_CAMARA_API_ROOT: `${issuer}/number-verification/v2`,
    NETWORK_VERIFICATION_CAMARA_CLIENT_ID: CLIENT_ID,
  });
  holder.port = server.port;
  try {
    const http = client(server.port, 4);
    const silent = await cpuPerProof(server, count, (phone) => silentProof(http, operator, redirects, phone));
    const code = await cpuPerProof(server, count, (phone) => codeProof(http, sms, phone));
    return [
      '',
      `| a number proven (${count} numbers after ${WARM_UP} to warm up, each once) | service CPU ms per proof |`,
      '|---|---|',
      `| silently by the network (CAMARA: start, the device's return, complete) | ${silent.toFixed(2)} |`,
      `| by a code (send through an HTTP gateway, verify) | ${code.toFixed(2)} |`,
      `| silent / code | ${(silent / code).toFixed(2)} |`,
    ];
  } finally {
    await server.stop();
    await operator.close();
    await sms.close();
  }
}
