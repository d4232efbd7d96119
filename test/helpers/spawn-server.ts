import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';
import { bundle } from '../../scripts/bundle.mjs';

/** The `callsign` command as `npx callsign` runs it: the TypeScript sources through tsx's loader. */
export const SOURCE_BIN = new URL('../../bin/callsign.mjs', import.meta.url).pathname;

/**
 * The `callsign` command as the tests run it: the bundle `npm start` and the image run, made from the sources
 * once per test file (esbuild, well under a second; files are replaced only when they changed, so test files
 * running at once share the folder). A child then starts in a third of the CPU tsx's loader takes.
 */
export const BIN = await bundle(
  join(fileURLToPath(new URL('../../node_modules/.cache/', import.meta.url)), 'callsign-tests'),
);

/**
 * Where the tests run the `callsign` command: a directory of no `.env`, so that a developer's own `.env` in the
 * working copy (the README's ADMIN_TOKEN, say) never changes what a test's child reads.
 */
export const CHILD_CWD = mkdtempSync(join(tmpdir(), 'callsign-cwd-'));

/** Servers still running: killed once the test file ends, so a failed test leaves none behind. */
const running = new Set<ChildProcess>();
after(() => {
  for (const child of running) child.kill('SIGKILL');
});

export interface SpawnedServer {
  child: ChildProcess;
  port: number;
  output(): string;
  exited: Promise<number | null>;
  stop(): Promise<number | null>;
}

/**
 * `callsign serve` in a process of its own, as a user runs it; resolves once it says where it listens. `bin`:
 * the command's sources through tsx (the `callsign` command), or the bundle `npm start` runs (P84).
 */
export async function spawnServer(
  env: NodeJS.ProcessEnv,
  nodeArgs: string[] = [],
  bin = BIN,
): Promise<SpawnedServer> {
  const child = spawn(process.execPath, [...nodeArgs, bin, 'serve'], {
    env,
    cwd: CHILD_CWD,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let out = '';
  child.stdout?.on('data', (c) => {
    out += c;
  });
  child.stderr?.on('data', (c) => {
    out += c;
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /listening on http:\/\/localhost:(\d+)/.exec(out);
      if (m) {
        clearInterval(timer);
        resolve(Number(m[1]));
      }
    }, 50);
    exited.then(() => {
      clearInterval(timer);
      reject(new Error(`serve exited early:\n${out}`));
    });
  });
  return {
    child,
    port,
    output: () => out,
    exited,
    stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
