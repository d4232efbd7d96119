import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

const MIGRATIONS = fileURLToPath(new URL('../../src/storage/migrations/', import.meta.url));
const CACHE = fileURLToPath(new URL('../../node_modules/.cache/', import.meta.url));

/**
 * A data directory whose PGlite database `callsign migrate` made, kept in node_modules/.cache under the hash of
 * the migrations and PGlite's version: made once (some seconds), then copied for each server (milliseconds).
 */
function migratedDataDir(): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(MIGRATIONS).sort())
    hash.update(name).update(readFileSync(join(MIGRATIONS, name)));
  hash.update(readFileSync(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url)));
  const made = join(CACHE, `callsign-data-${hash.digest('hex').slice(0, 16)}`);
  if (existsSync(made)) return made;
  // Made aside and renamed into place, so a test file running meanwhile copies it whole or makes its own.
  const making = mkdtempSync(`${made}-making-`);
  const r = spawnSync(process.execPath, [BIN, 'migrate'], {
    env: { ...process.env, DATA_DIR: making, DATABASE_URL: undefined },
    cwd: CHILD_CWD,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`callsign migrate: ${r.stderr}`);
  try {
    renameSync(making, made);
  } catch {
    rmSync(making, { recursive: true, force: true }); // another file's is there
  }
  return made;
}

/** `callsign serve` on PGlite in a data directory of its own, with the admin API on, for the admin commands. */
export async function startCliServer(prefix: string, extra: NodeJS.ProcessEnv = {}): Promise<CliServer> {
  const dataDir = mkdtempSync(join(tmpdir(), `callsign-${prefix}-`));
  cpSync(migratedDataDir(), dataDir, { recursive: true });
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
