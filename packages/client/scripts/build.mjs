// Builds the package: one ES module per entry (the browser entry with no import at all, the server entry with
// jose left to the app's node_modules), and the type declarations beside them.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
rmSync(join(root, 'dist'), { recursive: true, force: true });

const common = { bundle: true, format: 'esm', target: 'es2020', logLevel: 'warning', legalComments: 'none' };
await build({
  ...common,
  entryPoints: [join(root, 'src/index.ts')],
  outfile: join(root, 'dist/index.js'),
  platform: 'neutral',
});
await build({
  ...common,
  entryPoints: [join(root, 'src/server.ts')],
  outfile: join(root, 'dist/server.js'),
  platform: 'node',
  external: ['jose'],
});

const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });
