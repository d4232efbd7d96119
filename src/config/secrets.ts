import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Config, MEMORY_DATABASE_URL } from './config.ts';

export interface Secrets {
  pinPepper: Buffer;
  /** Verified with, never hashed with, while PIN_PEPPER changes */
  pinPepperFallback?: Buffer;
  keyEncryptionKey: Buffer;
  /** Read and verified with, never written with, while KEY_ENCRYPTION_KEY changes */
  keyEncryptionKeyFallback?: Buffer;
}

/**
 * Secrets come from the environment. Outside production a missing one is generated once into
 * DATA_DIR/secrets.json (mode 0600), so `npm start` needs no set-up; in memory mode it lives only in memory.
 */
export function resolveSecrets(
  config: Config,
  persist = config.databaseUrl !== MEMORY_DATABASE_URL,
): Secrets {
  const path = join(config.dataDir, 'secrets.json');
  let stored: Record<string, string> = {};
  if (persist && existsSync(path)) stored = JSON.parse(readFileSync(path, 'utf8'));
  let changed = false;
  const pick = (envValue: string | undefined, name: string) => {
    if (envValue) return Buffer.from(envValue, 'base64');
    if (config.appEnv === 'production') throw new Error(`${name} is required in production`);
    if (!stored[name]) {
      stored[name] = randomBytes(32).toString('base64');
      changed = true;
    }
    return Buffer.from(stored[name], 'base64');
  };
  const secrets = {
    pinPepper: pick(config.pinPepper, 'PIN_PEPPER'),
    pinPepperFallback: config.pinPepperFallback ? Buffer.from(config.pinPepperFallback, 'base64') : undefined,
    keyEncryptionKey: pick(config.keyEncryptionKey, 'KEY_ENCRYPTION_KEY'),
    keyEncryptionKeyFallback: config.keyEncryptionKeyFallback
      ? Buffer.from(config.keyEncryptionKeyFallback, 'base64')
      : undefined,
  };
  if (persist && changed) {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(path, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
    chmodSync(path, 0o600);
  }
  return secrets;
}
