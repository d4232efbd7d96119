// Where the server listens, and where a command on its own machine reaches it: the `callsign` admin commands run
// beside the server (or in its container), where its public address (BASE_URL) may not lead back to it.
import type { EnvReader } from './env-reader.ts';

/** This machine's address of a server listening on `host` and `port` (on every address: the loopback one). */
export function localListener(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/** HOST (the development server prints codes to its log, so by default only this machine reaches it). */
export function listenSettings(r: EnvReader, appEnv: string, port: number) {
  const host = r.str('HOST') ?? (appEnv === 'development' || appEnv === 'test' ? '127.0.0.1' : '0.0.0.0');
  return { host, adminUrl: r.url('CALLSIGN_ADMIN_URL', localListener(host, port)) };
}
