import { type ChildProcess, spawn } from 'node:child_process';

export const BIN = new URL('../../bin/callsign.mjs', import.meta.url).pathname;

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
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
