// P84: what `npm start` runs. The TypeScript sources as one plain ES module, with the SQL migrations beside it,
// so the service runs without tsx's loader: a worker takes about 65 MB less memory, and no loader thread runs
// in every process (the tests and the `callsign` command still run the sources through tsx). Packages stay
// outside the bundle, loaded from node_modules as before.
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Writes `<outDir>/callsign.mjs` (the `callsign` command: serve, migrate, ...) and `<outDir>/migrations/`. */
export async function bundle(outDir = join(root, 'dist')) {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: [join(root, 'src/cli/index.ts')],
    outfile: join(outDir, 'callsign.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  // src/storage/migrate.ts reads the migrations beside the module that holds it: in the bundle, this folder.
  cpSync(join(root, 'src/storage/migrations'), join(outDir, 'migrations'), { recursive: true });
  return join(outDir, 'callsign.mjs');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundle(process.argv[2]);
