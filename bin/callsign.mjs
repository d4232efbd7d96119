#!/usr/bin/env node
// The `callsign` command: the sources bundled as one plain ES module (dist/callsign.mjs), brought up to date
// first (a fraction of a second; nothing is written when nothing changed), then run without a TypeScript
// loader. Where dist/ cannot be written (a read-only image), the bundle already there runs.
import { existsSync } from 'node:fs';
import { bundle } from '../scripts/bundle.mjs';

const built = new URL('../dist/callsign.mjs', import.meta.url);
try {
  await bundle();
} catch (err) {
  if (!existsSync(built)) throw err;
}
await import(built.href);
