// `npm test`: the test runner on the files `test-files.mjs` chooses, a few to a process where they may, two
// processes at a time (the machine's cores; TEST_CONCURRENCY to change it),
// with the report that ends with the slowest files. Each file runs bundled with the sources it reaches
// (test-build.mjs). Its exit code is the runner's.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundlesDir, bundleTestFiles } from './test-build.mjs';
import { sameOnEitherDatabase, testFiles, testGroups } from './test-files.mjs';

const files = testFiles();
if (process.env.TEST_DATABASE_URL)
  console.log(
    `# on PostgreSQL + Redis: ${files.length} files; ${sameOnEitherDatabase().length} that never reach the database run on PGlite only`,
  );
const bundles = bundlesDir();
// The files share one set of test secrets and one migrated PGlite database to load (test/helpers/pglite-template.ts),
// made by whichever file first needs it, in a folder that goes when the run ends.
const templates = mkdtempSync(join(tmpdir(), 'callsign-test-'));
const env = {
  ...process.env,
  TEST_TEMPLATE_DIR: templates,
  TEST_SECRETS_SEED: randomBytes(32).toString('hex'),
  TEST_BUNDLES_DIR: bundles,
};
let status = 1;
try {
  const run = spawnSync(
    process.execPath,
    [
      // A failure's stack names the test's own file and line, not the bundle's.
      '--enable-source-maps',
      // WebAssembly (PGlite's PostgreSQL) compiled once, quickly, and never again optimised: a test process
      // is too short for the optimising compiler's seconds of CPU to pay back.
      '--liftoff-only',
      '--test',
      `--test-concurrency=${process.env.TEST_CONCURRENCY ?? 2}`,
      '--test-force-exit',
      '--test-reporter=./scripts/test-report.mjs',
      ...(await bundleTestFiles(testGroups(files), bundles)),
    ],
    { stdio: 'inherit', env },
  );
  status = run.status ?? 1;
} finally {
  rmSync(templates, { recursive: true, force: true });
  rmSync(bundles, { recursive: true, force: true });
}
process.exit(status);
