// `npm test`: the test runner on the files `test-files.mjs` chooses, two files at a time (the machine's cores),
// with the report that ends with the slowest files. Its exit code is the runner's.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sameOnEitherDatabase, testFiles } from './test-files.mjs';

const files = testFiles();
if (process.env.TEST_DATABASE_URL)
  console.log(
    `# on PostgreSQL + Redis: ${files.length} files; ${sameOnEitherDatabase().length} that never reach the database run on PGlite only`,
  );
// The files share one set of test secrets and one migrated PGlite database to load (test/helpers/pglite-template.ts),
// made by whichever file first needs it, in a folder that goes when the run ends.
const templates = mkdtempSync(join(tmpdir(), 'callsign-test-'));
const env = {
  ...process.env,
  TEST_TEMPLATE_DIR: templates,
  TEST_SECRETS_SEED: randomBytes(32).toString('hex'),
};
const run = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-concurrency=2',
    '--test-force-exit',
    '--test-reporter=./scripts/test-report.mjs',
    ...files,
  ],
  { stdio: 'inherit', env },
);
rmSync(templates, { recursive: true, force: true });
process.exit(run.status ?? 1);
