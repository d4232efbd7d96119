// Which test files `npm test` runs, and in what order. On PGlite (no TEST_DATABASE_URL), every file. On
// PostgreSQL + Redis (TEST_DATABASE_URL set), only the files whose tests depend on the database: those that
// name TEST_DATABASE_URL or TEST_REDIS_URL, themselves or in a file they reach through their imports (every
// test app does, through `test/helpers/database.ts`). A file that never does (the house's checks, the docs,
// the config, the commands run against a server on PGlite of its own) runs the same on either, so the second
// run would only repeat the first. The files that drive Chromium come first: they are the longest, and a
// long file started near the end would run alone while the other core waits.
// The files then run a few to a process (`testGroups`): a process's start (loading the sources, starting a
// PGlite, compiling the first app) is most of a short file's time. A file that drives Chromium, or changes or
// measures its process (its environment, its globals, its memory, what it has loaded, what ran in it), runs
// in a process of its own.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** What a file names when the database under the tests matters to it. */
const NAMES_THE_DATABASE = /\bTEST_(?:DATABASE|REDIS)_URL\b/;
/** What a file holds when it launches Chromium: the call of the browser helper. */
const LAUNCHES_CHROMIUM = /\blaunchBrowser\(/;
/** What a file holds when it changes or measures the process it runs in: such a file runs in its own. */
const TOUCHES_ITS_PROCESS =
  /process\.env\.\w+\s*=(?!=)|process\.env\[[^\]]+\]\s*=(?!=)|delete process\.env|globalThis\.|memoryUsage|\/proc\/self|process\.chdir|['"]node:inspector/;
/** How many test files share a process, where they may. */
const FILES_PER_PROCESS = 4;
/** The relative imports of a test file or helper (`from './x.ts'`, `import('./x.ts')`). */
const RELATIVE_IMPORT = /(?:from\s+|import\s*\(\s*)['"](\.{1,2}\/[^'"]+\.(?:ts|mjs|js))['"]/g;

/** Every `test/<folder>/<name>.test.ts`, in order, relative to the project. */
export function allTestFiles() {
  const tests = join(root, 'test');
  return readdirSync(tests, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(tests, d.name))
        .filter((name) => name.endsWith('.test.ts'))
        .map((name) => `test/${d.name}/${name}`),
    )
    .sort();
}

/**
 * Whether a file, or a file of `test/` it reaches through its relative imports, holds text that `pattern`
 * matches.
 * @param {string} file an absolute path
 * @param {RegExp} pattern
 * @param {Set<string>} seen the files looked at already
 * @returns {boolean}
 */
function reaches(file, pattern, seen = new Set()) {
  if (seen.has(file) || !file.startsWith(join(root, 'test')) || !existsSync(file)) return false;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  if (pattern.test(text)) return true;
  for (const [, spec] of text.matchAll(RELATIVE_IMPORT))
    if (reaches(resolve(dirname(file), spec), pattern, seen)) return true;
  return false;
}

/** Whether a file (its path from the project or absolute), or a file of `test/` it imports, names the test
 * database. @param {string} file */
export const dependsOnDatabase = (file) => reaches(resolve(root, file), NAMES_THE_DATABASE);

/** Whether a file (its path from the project or absolute), itself or through a file of `test/` it imports,
 * launches Chromium. @param {string} file */
export const drivesBrowser = (file) => reaches(resolve(root, file), LAUNCHES_CHROMIUM);

/**
 * The files to run: all of them, or on PostgreSQL + Redis those the database matters to.
 * @param {Record<string, string | undefined>} env
 */
export function testFiles(env = process.env) {
  const all = allTestFiles();
  const files = env.TEST_DATABASE_URL ? all.filter((file) => dependsOnDatabase(file)) : all;
  const browsing = files.filter((file) => drivesBrowser(file));
  return [...browsing, ...files.filter((file) => !browsing.includes(file))];
}

/** Whether a file (its path from the project or absolute), itself or through a file of `test/` it imports,
 * changes or measures the process it runs in. @param {string} file */
export const touchesItsProcess = (file) => reaches(resolve(root, file), TOUCHES_ITS_PROCESS);

/**
 * The files to run, in their order, as the processes that run them: a file that drives Chromium or touches
 * its process alone, the others FILES_PER_PROCESS at a time, in the order of `files`.
 * @param {string[]} files
 * @returns {string[][]}
 */
export function testGroups(files) {
  /** @type {string[][]} */
  const groups = [];
  /** @type {string[]} */
  let sharing = [];
  for (const file of files) {
    if (drivesBrowser(file) || touchesItsProcess(file)) {
      groups.push([file]);
      sharing = [];
    } else {
      if (sharing.length === 0) groups.push(sharing);
      sharing.push(file);
      if (sharing.length === FILES_PER_PROCESS) sharing = [];
    }
  }
  return groups;
}

/** The files `testFiles` leaves out on PostgreSQL + Redis. */
export const sameOnEitherDatabase = () => allTestFiles().filter((file) => !dependsOnDatabase(file));
