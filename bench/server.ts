import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = new URL('../bin/callsign.mjs', import.meta.url).pathname;

export interface BenchServer {
  port: number;
  /** peak resident set size (VmHWM) so far, in MB: of the largest service process, and of all of them */
  peakRssMb(): { largest: number; total: number };
  stop(): Promise<void>;
}

/** The service in a process of its own, as `callsign serve` runs it, with limits raised for one address (D28). */
export async function startServer(env: Record<string, string>): Promise<BenchServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'callsign-bench-'));
  // BENCH_NODE_ARGS passes flags to the service's node, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, BIN, 'serve'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout?.on('data', (c) => {
    out += c;
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /listening on http:\/\/localhost:(\d+)/.exec(out);
      if (m) {
        clearInterval(timer);
        resolve(Number(m[1]));
      }
    }, 50);
    exited.then(() => reject(new Error(`server exited:\n${out}`)));
  });
  return {
    port,
    peakRssMb() {
      const pids = [
        child.pid,
        ...readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').split(' ').filter(Boolean),
      ];
      const peaks = pids.map(
        (pid) =>
          Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024,
      );
      return { largest: Math.max(...peaks), total: peaks.reduce((a, b) => a + b, 0) };
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
