import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { bundle, scratchBundleDir } from '../scripts/bundle.mjs';
import { spawnServer } from '../test/helpers/spawn-server.ts';

export interface BenchServer {
  port: number;
  /** the service's first process (with WEB_CONCURRENCY > 1, the primary of the workers) */
  pid: number;
  /** peak resident set size (VmHWM) so far, in MB: of the largest service process, and of all of them */
  peakRssMb(): { largest: number; total: number };
  stop(): Promise<void>;
}

/**
 * The service in a process of its own, as `npm start` runs it (the bundle, P84), with limits raised for one
 * address (D28).
 */
export async function startServer(env: Record<string, string>): Promise<BenchServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'callsign-bench-'));
  const bundleDir = scratchBundleDir('callsign-bench-');
  // BENCH_NODE_ARGS passes flags to the service's node, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const server = await spawnServer(
    { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    nodeArgs,
    await bundle(bundleDir),
  );
  // What goes wrong in the service shows while the run goes on: the primary's word of a worker that exited,
  // and logged errors (pino level 50 and above; the service logs at warn). BENCH_SERVICE_WARNINGS=1 shows
  // its warnings too (level 40), such as a request answered 503.
  // A line that is not a log entry (a crash's stack) shows too, and so does a process that ends unasked.
  const shown = process.env.BENCH_SERVICE_WARNINGS ? /exited|"level":(40|50|60)/ : /exited|"level":(50|60)/;
  const relay = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n'))
      if (shown.test(line) || (line.trim() && !line.startsWith('{')))
        process.stderr.write(`service: ${line}\n`);
  };
  server.child.stdout?.on('data', relay);
  server.child.stderr?.on('data', relay);
  const pid = server.child.pid as number;
  let stopping = false;
  server.child.once('exit', (code, signal) => {
    if (!stopping) process.stderr.write(`service ${pid} ended: ${signal ?? `exit code ${code}`}\n`);
  });
  return {
    port: server.port,
    pid,
    peakRssMb() {
      const pids = [
        pid,
        ...readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean),
      ];
      const peaks = pids.map(
        (p) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0) / 1024,
      );
      return { largest: Math.max(...peaks), total: peaks.reduce((a, b) => a + b, 0) };
    },
    async stop() {
      stopping = true;
      await server.stop();
      for (const dir of [dataDir, bundleDir]) rmSync(dir, { recursive: true, force: true });
    },
  };
}
