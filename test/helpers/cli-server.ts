import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';
import { BIN, CHILD_CWD, type SpawnedServer, spawnServer } from './spawn-server.ts';

export const CLI_ADMIN_TOKEN = 'cli-admin-token-0123456789abcdef';

export interface CliServer {
  base: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  server: SpawnedServer;
  /** `callsign ...args` against the server, as an operator runs it */
  cli(...args: string[]): { code: number | null; out: string; err: string };
  stop(): Promise<void>;
}

/** `callsign serve` on PGlite in a data directory of its own, with the admin API on, for the admin commands. */
export async function startCliServer(prefix: string, extra: NodeJS.ProcessEnv = {}): Promise<CliServer> {
  const dataDir = mkdtempSync(join(tmpdir(), `callsign-${prefix}-`));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    BASE_URL: base,
    ADMIN_TOKEN: CLI_ADMIN_TOKEN,
    LOG_LEVEL: 'warn',
    ...extra,
  };
  delete env.DATABASE_URL;
  const server = await spawnServer(env);
  return {
    base,
    dataDir,
    env,
    server,
    cli(...args) {
      const r = spawnSync(process.execPath, [BIN, ...args], { env, cwd: CHILD_CWD, encoding: 'utf8' });
      return { code: r.status, out: r.stdout, err: r.stderr };
    },
    async stop() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
