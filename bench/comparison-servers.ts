import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Starts a comparison server (a script of bench/) in its own process; answers what it reports over IPC. */
export async function startChild<T>(script: string, args: string[]) {
  const child = fork(new URL(script, import.meta.url).pathname, args, {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const report = await new Promise<T>((resolve, reject) => {
    child.once('message', (m) => resolve(m as T));
    child.once('exit', (code) => reject(new Error(`${script} exited (${code})`)));
  });
  return {
    ...report,
    child,
    pid: child.pid as number,
    peakRssMb: () =>
      Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024,
    stop: () => child.kill('SIGTERM'),
  };
}

/** bench/oidc-provider-server.ts: its port, and a way to ask it for one new refresh token per lane. */
export async function startOidcProvider(lanes: number) {
  const started = await startChild<{ port: number }>('./oidc-provider-server.ts', [String(lanes)]);
  return {
    ...started,
    tokens: () =>
      new Promise<string[]>((resolve) => {
        started.child.once('message', (m) => resolve(m as string[]));
        started.child.send('mint');
      }),
  };
}

/** bench/floor-server.ts with as many processes as the service: its port. */
export const startFloor = (processes: number) =>
  startChild<{ port: number }>('./floor-server.ts', [String(processes)]);
