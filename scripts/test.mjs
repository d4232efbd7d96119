// `npm test`: the test runner on the files `test-files.mjs` chooses, two files at a time (the machine's cores),
// with the report that ends with the slowest files. Its exit code is the runner's.
import { spawnSync } from 'node:child_process';
import { sameOnEitherDatabase, testFiles } from './test-files.mjs';

const files = testFiles();
if (process.env.TEST_DATABASE_URL)
  console.log(
    `# on PostgreSQL + Redis: ${files.length} files; ${sameOnEitherDatabase().length} that never reach the database run on PGlite only`,
  );
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
  { stdio: 'inherit' },
);
process.exit(run.status ?? 1);
