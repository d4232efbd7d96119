// P84: what `npm start` runs. The TypeScript sources as one plain ES module, with the SQL migrations beside it,
// so the service runs without tsx's loader: a worker takes about 65 MB less memory, and no loader thread runs
// in every process. The `callsign` command runs it too, bundled afresh first; the tests run the sources through
// tsx. Packages stay outside the bundle, loaded from node_modules as before.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const migrations = join(root, 'src/storage/migrations');
/** The names of the bundle's chunks: a module's name and its content's hash. */
const CHUNK = /^[\w-]+-[A-Z0-9]{8}\.mjs$/;
/** The names `src/storage/migrate.ts` applies. */
const MIGRATION = /^\d{3}_.+\.sql$/;

/**
 * Writes `content` at `path` unless it is there already, through a file renamed into place: a service
 * starting from this folder meanwhile (another instance's `npm start`) reads the old file or the new one,
 * never a half-written one, and never a migration that is not there.
 * @param {string} path
 * @param {Buffer} content
 */
function place(path, content) {
  if (existsSync(path) && readFileSync(path).equals(content)) return;
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, content);
  renameSync(partial, path);
}

/** Writes `<outDir>/callsign.mjs` (the `callsign` command: serve, migrate, ...) and `<outDir>/migrations/`. */
export async function bundle(dir = join(root, 'dist')) {
  const outDir = resolve(dir);
  mkdirSync(join(outDir, 'migrations'), { recursive: true });
  const { outputFiles } = await build({
    entryPoints: [join(root, 'src/cli/index.ts')],
    outdir: outDir,
    entryNames: 'callsign',
    // The service's modules in chunks of their own, loaded by the commands that run it, not by the rest. They
    // sit beside the command, so `migrations/` is beside every module that reads it.
    splitting: true,
    chunkNames: '[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
    write: false,
  });
  for (const file of outputFiles) place(file.path, Buffer.from(file.contents));
  // A chunk of an older bundle goes (its name holds its content's hash); a file on its way into place stays.
  const made = new Set(outputFiles.map((file) => file.path));
  for (const name of readdirSync(outDir))
    if (CHUNK.test(name) && !made.has(join(outDir, name))) unlinkSync(join(outDir, name));
  // src/storage/migrate.ts reads the migrations beside the module that holds it: in the bundle, this folder.
  const sources = readdirSync(migrations);
  for (const name of sources) place(join(outDir, 'migrations', name), readFileSync(join(migrations, name)));
  // A migration no longer in the sources goes; another instance's file on its way into place stays.
  for (const name of readdirSync(join(outDir, 'migrations')))
    if (MIGRATION.test(name) && !sources.includes(name)) unlinkSync(join(outDir, 'migrations', name));
  return join(outDir, 'callsign.mjs');
}

/**
 * A new folder for a bundle of its own (the benchmark's, a test's): inside the project, so that it finds its
 * packages in node_modules, and deeper than dist/.
 * @param {string} prefix
 */
export function scratchBundleDir(prefix) {
  const cache = join(root, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  return mkdtempSync(join(cache, prefix));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundle(process.argv[2]);
