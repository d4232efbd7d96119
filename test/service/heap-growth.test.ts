import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { HEAP_GROWING_PERCENT, limitHeapGrowth } from '../../src/process/heap-growth.ts';
import { BIN, CHILD_CWD } from '../helpers/spawn-server.ts';

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
    ? `const { limitHeapGrowth } = await import(${JSON.stringify(new URL('../../src/process/heap-growth.ts', import.meta.url).href)}); limitHeapGrowth([], '');`
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

/** Loaded before the command: says on stderr each V8 flag the process sets on itself. */
const REPORT_FLAGS = `data:text/javascript,${encodeURIComponent(
  "import v8 from 'node:v8'; const set = v8.setFlagsFromString; v8.setFlagsFromString = (flags) => { process.stderr.write('v8 flags: ' + flags + '\\n'); set(flags); };",
)}`;

/** The `callsign` command's output until it says `ready`, then it is stopped. */
async function outputOf(command: string, ready: RegExp): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'callsign-heap-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  delete env.NODE_OPTIONS;
  const child = spawn(process.execPath, ['--import', REPORT_FLAGS, BIN, command], { env, cwd: CHILD_CWD });
  let out = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        out += chunk;
        if (ready.test(out)) resolve();
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.once('exit', () => reject(new Error(`${command} exited early:\n${out}`)));
    });
  } finally {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
  return out;
}

test('serve and worker each limit their heap growth when they start', async () => {
  for (const [command, ready] of [
    ['serve', /listening on http/],
    ['worker', /worker running/],
  ] as const) {
    const out = await outputOf(command, ready);
    assert.match(out, new RegExp(`v8 flags: --heap-growing-percent=${HEAP_GROWING_PERCENT}\\n`), command);
  }
});
