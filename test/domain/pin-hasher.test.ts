import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { test } from 'node:test';
import { PinHasher } from '../../src/domain/accounts/pin-hasher.ts';

const HASHES = 16;
/** libuv's default thread pool, which the argon2 binding and node's crypto share. */
const POOL_THREADS = 4;

// P56: a process computes at most its share of the cores' hashes at once; the others wait in the process,
// not in the thread pool, so a token signature (which also runs there) does not queue behind them.
test('hashes beyond the bound wait in the process, not in front of a signature in the thread pool', async () => {
  const hasher = new PinHasher(Buffer.alloc(32, 1), 1);
  const stored = await hasher.hash('480715');
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

  let hashesDone = 0;
  const hashes = Array.from({ length: HASHES }, () =>
    hasher.verify(stored, '480715').then((ok) => {
      assert.equal(ok, true);
      hashesDone++;
    }),
  );
  await new Promise((r) => setImmediate(r)); // every hash that may start has started
  const hashesDoneAtSignature = await new Promise<number>((resolve, reject) =>
    sign('sha256', Buffer.from('payload'), privateKey, (err) => (err ? reject(err) : resolve(hashesDone))),
  );
  await Promise.all(hashes);
  assert.equal(hashesDone, HASHES);
  // Unbounded, the hashes would fill the pool's threads and its FIFO queue ahead of the signature, which
  // could start only once all but POOL_THREADS - 1 of them had finished: 13 of 16, whatever the timing.
  // Bounded, one hash holds one thread and the signature takes another at once. The check allows half the
  // hashes before it, so that a loaded CI host starving the signature's thread for a few hash times (session
  // 19's CI saw 2 finish first) does not fail it; without the bound it still cannot pass.
  const unboundedAtLeast = HASHES - (POOL_THREADS - 1);
  assert.ok(
    hashesDoneAtSignature <= HASHES / 2,
    `${hashesDoneAtSignature} hashes finished before the signature (unbounded: at least ${unboundedAtLeast})`,
  );
});
