import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Starts bench/oidc-provider-server.ts in its own process; answers its port and one refresh token per lane. */
export async function startOidcProvider(lanes: number) {
  const child = fork(new URL('./oidc-provider-server.ts', import.meta.url).pathname, [String(lanes)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const { port, tokens } = await new Promise<{ port: number; tokens: string[] }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { port: number; tokens: string[] }));
    child.once('exit', (code) => reject(new Error(`oidc-provider exited (${code})`)));
  });
  return {
    port,
    tokens,
    pid: child.pid as number,
    peakRssMb: () =>
      Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024,
    stop: () => child.kill('SIGTERM'),
  };
}
