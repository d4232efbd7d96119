import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { Worker } from 'node:worker_threads';

// The machine's ceilings, measured in the same run as the scenarios: what all cores can do of the one
// expensive operation each scenario cannot avoid.

const rs256Worker = `
const { parentPort, workerData } = require('node:worker_threads');
const { createPrivateKey, sign } = require('node:crypto');
const key = createPrivateKey(workerData.pem);
const header = Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: 'k' })).toString('base64url');
let n = 0;
const end = Date.now() + workerData.ms;
while (Date.now() < end) {
  const payload = Buffer.from(JSON.stringify({ sub: 'u', n })).toString('base64url');
  sign('sha256', Buffer.from(header + '.' + payload), key);
  n++;
}
parentPort.postMessage(n);
`;

/** RS256 (RSA-2048) signatures per second, one signing thread per core. */
export async function rs256Ceiling(seconds: number): Promise<number> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' });
  const counts = await Promise.all(
    Array.from(
      { length: availableParallelism() },
      () =>
        new Promise<number>((resolve, reject) => {
          const w = new Worker(rs256Worker, { eval: true, workerData: { pem, ms: seconds * 1000 } });
          w.once('message', resolve);
          w.once('error', reject);
        }),
    ),
  );
  return counts.reduce((a, b) => a + b, 0) / seconds;
}

/** PIN verifications per second with the service's own hasher, as many in flight as there are cores. */
export async function pinHashCeiling(seconds: number): Promise<number> {
  const { PinHasher } = await import('../src/domain/accounts/pin-hasher.ts');
  const hasher = new PinHasher(Buffer.alloc(32, 9), availableParallelism());
  const hash = await hasher.hash('480715');
  let n = 0;
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: availableParallelism() }, async () => {
      while (Date.now() < end) {
        await hasher.verify(hash, '480715');
        n++;
      }
    }),
  );
  return n / seconds;
}

/**
 * The host, as far as it moves the ceilings: the CPU, and whether OpenSSL can sign with AVX-512 IFMA, which
 * makes an RSA-2048 signature about three times cheaper (0.26 against 0.75 CPU ms, sessions 10 and 11), so
 * that everything else weighs three times as much against the RS256 ceiling.
 */
export function hostLine(): string {
  let ifma = 'unknown';
  try {
    ifma = /\bavx512ifma\b/.test(readFileSync('/proc/cpuinfo', 'utf8')) ? 'yes' : 'no';
  } catch {}
  return `host: ${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} cores, Node.js ${process.versions.node}, OpenSSL ${process.versions.openssl}, AVX-512 IFMA: ${ifma}`;
}
