import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { test } from 'node:test';
import { PinHasher } from '../../src/domain/pin-hasher.ts';

// P56: a process computes at most its share of the cores' hashes at once; the others wait in the process,
// not in the thread pool, so a token signature (which also runs there) does not queue behind them.
test('P56: hashes beyond the bound wait in the process, not in front of a signature in the thread pool', async () => {
  const hasher = new PinHasher(Buffer.alloc(32, 1), 1);
  const stored = await hasher.hash('480715');
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

  let hashesDone = 0;
  const hashes = Array.from({ length: 8 }, () =>
    hasher.verify(stored, '480715').then((ok) => {
      assert.equal(ok, true);
      hashesDone++;
    }),
  );
  await new Promise((r) => setImmediate(r)); // every hash that may start has started
  // The thread pool has 4 threads; unbounded, the 8 hashes would fill them and the queue ahead of this
  // signature, which would then finish after at least 5 of them. Bounded, one hash holds one thread.
  const hashesDoneAtSignature = await new Promise<number>((resolve, reject) =>
    sign('sha256', Buffer.from('payload'), privateKey, (err) => (err ? reject(err) : resolve(hashesDone))),
  );
  await Promise.all(hashes);
  assert.ok(hashesDoneAtSignature <= 1, `${hashesDoneAtSignature} hashes finished before the signature`);
  assert.equal(hashesDone, 8);
});
