// The test files as `npm test` runs them: each one bundled with the sources it reaches into one plain ES
// module, as `npm start` runs the service (scripts/bundle.mjs), so that no test process loads tsx's loader or
// its five hundred modules one by one: that was most of a test file's start. The bundles are written under
// `node_modules/.cache/`, where a package the bundle leaves out resolves as it does from the sources.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The packages written into each bundle: modules of many small files (typebox alone loads 679) that only the
 * sources use, or, for jose and uuid, that a package left out loads a copy of its own of, which never meets
 * the sources' copy (openid-client's jose in the tests' relying party, ioredis's uuid). Every other package
 * is loaded from node_modules as the sources load it.
 */
const BUNDLED_PACKAGES = new Set([
  'typebox',
  'libphonenumber-js',
  '@simplewebauthn/server',
  '@levischuck/tiny-cbor',
  'tsyringe',
  'asn1js',
  'pvtsutils',
  'pvutils',
  'jose',
  'uuid',
  'intl-messageformat',
  'prom-client',
]);
/** The scopes whose packages are all written into each bundle, for the same reasons. */
const BUNDLED_SCOPES = ['@opentelemetry/', '@peculiar/', '@formatjs/'];

/** Whether the package a bare import names is written into the bundle. @param {string} spec */
const bundled = (spec) =>
  BUNDLED_PACKAGES.has(spec.split('/', spec.startsWith('@') ? 2 : 1).join('/')) ||
  BUNDLED_SCOPES.some((scope) => spec.startsWith(scope));

/** The name each bundled source's `import.meta.url` stands for: its own constant, declared in it. */
const OWN_URL = '__source_file_url';

/**
 * A file's own address where it is read, not the bundle's: a source that finds a file beside it
 * (`new URL('./migrations/', import.meta.url)`) finds it where it always did.
 * @type {import('esbuild').Plugin}
 */
const ownAddress = {
  name: 'own-address',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, ({ path }) => (bundled(path) ? undefined : { path, external: true }));
    // The file's address in a constant of its own, on its first line so that its lines stay where they are.
    b.onLoad({ filter: /\.[cm]?[jt]s$/ }, async ({ path }) => {
      const text = await readFile(path, 'utf8');
      const loader = path.endsWith('ts') ? 'ts' : 'js';
      if (!text.includes('import.meta.url')) return { contents: text, loader };
      const own = `const ${OWN_URL} = ${JSON.stringify(pathToFileURL(path).href)};`;
      // A command's `#!` line gives way to it (a bundle is never run as a command).
      if (text.startsWith('#!')) return { contents: own + text.slice(text.indexOf('\n')), loader };
      return { contents: own + text, loader };
    });
  },
};

/** Where a run's bundles go: one folder per run, so that two runs at once never share one. */
export const bundlesDir = () => join(root, 'node_modules/.cache/callsign-test-files', String(process.pid));

/**
 * The folder of a process's bundles that keeps the processes' order: Node's runner sorts the files it is given
 * by path, so each process's files go under its place in the list (`0000/test/pages/...`), and the runner
 * starts them in the order they were given.
 * @param {number} place
 */
export const orderFolder = (place) => String(place).padStart(4, '0');

/** The file a process of several test files runs, in its place's folder: it imports their bundles in order. */
export const TOGETHER = 'files-together.mjs';

/**
 * Bundles the test files of each process in `groups` (paths from the project, or absolute paths in it) into
 * `outDir`: each file to its process's folder and its path from the project with `.mjs` for `.ts`, with a
 * source map beside it. Resolves to what the runner runs, one file per process in the groups' order (which is
 * also the order of the paths): a file's bundle where it runs alone, and where several share a process, a
 * file that imports their bundles one after the other, so that their tests run in that order.
 * @param {string[][]} groups
 * @param {string} outDir
 */
export async function bundleTestFiles(groups, outDir) {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const placed = groups.map((files, place) =>
    files.map((file) => join(orderFolder(place), relative(root, resolve(root, file)).replace(/\.ts$/, ''))),
  );
  await build({
    entryPoints: groups.flatMap((files, place) =>
      files.map((file, i) => ({ in: resolve(root, file), out: placed[place][i] })),
    ),
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // A function's and a class's own names, as the sources have them (a bundle renames a name two files share).
    keepNames: true,
    sourcemap: 'linked',
    sourcesContent: false,
    define: { 'import.meta.url': OWN_URL },
    // A package written into the bundle that calls `require` finds it (its own packages then load as before).
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    plugins: [ownAddress],
    logLevel: 'warning',
  });
  return placed.map((bundles, place) => {
    if (bundles.length === 1) return join(outDir, `${bundles[0]}.mjs`);
    const together = join(outDir, orderFolder(place), TOGETHER);
    const imports = bundles.map(
      (bundle) => `import ${JSON.stringify(`./${relative(orderFolder(place), bundle)}.mjs`)};`,
    );
    writeFileSync(together, `${imports.join('\n')}\n`);
    return together;
  });
}
