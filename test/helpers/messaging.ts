import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A MESSAGING_CONFIG file of this content, in a directory of its own; answers its path. */
export function writeConfig(config: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'callsign-messaging-')), 'messaging.json');
  writeFileSync(path, JSON.stringify(config));
  return path;
}

/** `${NAME}` as MESSAGING_CONFIG writes a reference to an environment variable. */
export const envRef = (name: string) => ['$', '{', name, '}'].join('');
