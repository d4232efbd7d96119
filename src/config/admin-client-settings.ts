// What the `callsign` commands that call the admin API read, and nothing else: the admin token, where the server
// listens on this machine (or CALLSIGN_ADMIN_URL), and DATA_DIR. Read alone, these commands start without
// loading the service's other settings, and a bad setting the server alone reads does not stop them.
import { resolve } from 'node:path';
import { ConfigError } from './config-error.ts';
import { type Env, EnvReader } from './env-reader.ts';
import { listenSettings } from './listen-address.ts';

export interface AdminClientSettings {
  /** ADMIN_TOKEN: the admin API's bearer token */
  adminToken: string | undefined;
  /** where the admin API is: CALLSIGN_ADMIN_URL, else this machine's listener at HOST and PORT */
  adminUrl: string;
  /** DATA_DIR, where an export is written beside the data */
  dataDir: string;
}

/** The admin commands' settings, as `loadConfig` reads the same variables; every bad one named at once. */
export function loadAdminClientSettings(env: Env): AdminClientSettings {
  const r = new EnvReader(env);
  const appEnv = r.oneOf('APP_ENV', ['development', 'test', 'staging', 'production'], 'development');
  const port = r.integer('PORT', 3000, 0, 65535, 'a port, 0-65535');
  const settings = {
    adminToken: r.token('ADMIN_TOKEN', 24),
    adminUrl: listenSettings(r, appEnv, port).adminUrl,
    dataDir: resolve(r.str('DATA_DIR') ?? './data'),
  };
  if (r.problems.length) throw new ConfigError(r.problems);
  return settings;
}
