import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { limitHeapGrowth } from '../../src/heap-growth.ts';

// A process that keeps some 30 MB of live objects, renews part of them, and makes short-lived garbage fast,
// as a worker under a stream of requests does; it prints the largest heap V8 committed meanwhile, in MB.
const CHURN = `
const live = [];
for (let i = 0; i < 30000; i++) live.push({ id: i, blob: 'x'.repeat(1000) + i });
let peak = 0;
for (let round = 0; round < 300; round++) {
  for (let i = 0; i < 20000; i++) {
    const tmp = { a: [1, 2, 3], s: round + '-' + i };
    if (i % 50 === 0) live[(round * 400 + i / 50) % live.length] = { id: i, blob: 'y'.repeat(1000) + tmp.s };
  }
  peak = Math.max(peak, process.memoryUsage().heapTotal);
}
process.stdout.write(String(peak / 1048576));
`;

/** The churn's peak heap in a fresh process, with the service's limit applied first or not. */
function peakHeapMb(limited: boolean): number {
  const setup = limited
    ? `const { limitHeapGrowth } = await import(${JSON.stringify(new URL('../../src/heap-growth.ts', import.meta.url).href)}); limitHeapGrowth([], '');`
    : '';
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', setup + CHURN],
    {
      env: { ...process.env, NODE_OPTIONS: '' },
      encoding: 'utf8',
    },
  );
  return Number(out);
}

test('a service process lets its heap grow to half again its live size, not the default up to four times', () => {
  const unlimited = peakHeapMb(false);
  const limited = peakHeapMb(true);
  assert.ok(
    limited < unlimited * 0.9,
    `peak heap ${limited.toFixed(0)} MB limited, ${unlimited.toFixed(0)} MB not`,
  );
});

test("an operator's own heap growth setting is left as it is", () => {
  assert.equal(limitHeapGrowth([], '--max-old-space-size=512 --heap-growing-percent=20'), false);
  assert.equal(limitHeapGrowth(['--heap_growing_percent=20'], ''), false);
});
