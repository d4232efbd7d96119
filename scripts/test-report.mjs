// The test runner's report: the usual one (spec in a terminal, TAP otherwise, as `node --test` chooses), then
// the slowest test files, so that a slow file is seen where it is added. A file that ran in a process of its
// own is timed from the process's start to its end; a file that shared one, by its tests' own times. With
// --test-force-exit the runner may stop before a reporter's last words, so they are also written as the
// process exits.
import { writeFileSync, writeSync } from 'node:fs';
import { relative } from 'node:path';
import { Readable } from 'node:stream';
import { spec, tap } from 'node:test/reporters';

/** How many of the slowest files are listed. */
const SHOWN = 20;

/** The slowest files' lines, the run's wall time first. Every file's time goes to TEST_TIMES_FILE if set. */
function slowestLines(/** @type {Map<string, number>} */ files, /** @type {number} */ startedAt) {
  if (process.env.TEST_TIMES_FILE)
    writeFileSync(
      process.env.TEST_TIMES_FILE,
      [...files].map(([file, ms]) => `${(ms / 1000).toFixed(1)}\t${file}\n`).join(''),
    );
  const slowest = [...files].sort((a, b) => b[1] - a[1]).slice(0, SHOWN);
  const root = `${process.cwd()}/`;
  const added = [...files.values()].reduce((sum, ms) => sum + ms, 0) / 1000;
  // Against the wall time, what the files took one after another: the run's use of its two lanes.
  const wall = `# wall time ${((performance.now() - startedAt) / 1000).toFixed(1)} s; the files' times add up to ${added.toFixed(1)} s\n`;
  if (slowest.length < 2) return wall;
  return [
    wall,
    `# the ${slowest.length} slowest test files\n`,
    ...slowest.map(
      ([file, ms]) =>
        `#   ${(ms / 1000).toFixed(1).padStart(7)} s  ${file.startsWith(root) ? file.slice(root.length) : file}\n`,
    ),
  ].join('');
}

/** The folder of its place in the run that a bundle's path starts with (scripts/test-build.mjs). */
const ORDER_FOLDER = /^\d{4}\//;
/** The file of a process that runs several test files: `0012/files-together.mjs` (scripts/test-build.mjs). */
const TOGETHER = /^\d{4}\/files-together\.mjs$/;

/**
 * The test file, from the project, that a file the runner names stands for: a bundle's source (the same path
 * under TEST_BUNDLES_DIR and its place's folder, `.mjs` for `.ts`: scripts/test-build.mjs), or, where a test's
 * place is read through its source map, that source itself.
 * @param {string} file
 */
function testFile(file) {
  const bundles = process.env.TEST_BUNDLES_DIR;
  if (bundles && file.startsWith(bundles))
    return relative(bundles, file)
      .replace(ORDER_FOLDER, '')
      .replace(/\.mjs$/, '.ts');
  return file.startsWith(`${process.cwd()}/`) ? relative(process.cwd(), file) : file;
}

/** Whether the runner's file is a process's of several test files. @param {string} file */
function ranTogether(file) {
  const bundles = process.env.TEST_BUNDLES_DIR;
  return !!bundles && file.startsWith(bundles) && TOGETHER.test(relative(bundles, file));
}

/** @param {AsyncIterable<import('node:test/reporters').TestEvent>} source the runner's events */
export default async function* report(source) {
  const startedAt = performance.now();
  /** each file's process's time, for a file that ran alone, in ms */
  const processes = new Map();
  /** each file's tests' times added up, in ms */
  const tests = new Map();
  /** each test file's time: its process's where it ran alone, else its tests' */
  const files = () => new Map([...tests, ...processes]);
  let told = false;
  process.on('exit', () => {
    if (!told) writeSync(1, slowestLines(files(), startedAt));
  });
  async function* watched() {
    for await (const event of source) {
      if (event.type === 'test:complete' && event.data.file && event.data.nesting === 0) {
        const { file, name, details } = event.data;
        // The runner names a process by its file; the process's tests come before or after it.
        if (name !== file) tests.set(testFile(file), (tests.get(testFile(file)) ?? 0) + details.duration_ms);
        else if (!ranTogether(file)) processes.set(testFile(file), details.duration_ms);
      }
      yield event;
    }
  }
  if (process.stdout.isTTY) yield* Readable.from(watched()).pipe(new spec());
  else yield* tap(watched());
  told = true;
  yield slowestLines(files(), startedAt);
}
