import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join, relative } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleTestFiles } from '../../scripts/test-build.mjs';
import report from '../../scripts/test-report.mjs';
import { sourceFilesThatRan } from '../helpers/coverage.ts';

// `npm test` runs each test file bundled with the sources it reaches. A bundled source still finds the files
// beside it by its own address, a command's `#!` line does not break it, the packages of many small files are
// in the bundle and the rest load from node_modules, coverage names the source a function was written in, the
// runner starts the files in the order they were given, files that share a process run there one after the
// other, and the report names the test file, not its bundle.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CACHE = join(ROOT, 'node_modules/.cache');
let sources: string;
let bundles: string;
let bundle: string;

before(async () => {
  mkdirSync(CACHE, { recursive: true });
  // In the project, as the test files are: a package left out of the bundle resolves from node_modules.
  sources = mkdtempSync(join(CACHE, 'test-bundles-sources-'));
  bundles = mkdtempSync(join(CACHE, 'test-bundles-out-'));
  writeFileSync(
    join(sources, 'beside.ts'),
    'export const besideUrl: string = import.meta.url;\nexport function answer(): number {\n  return 42;\n}\n',
  );
  writeFileSync(
    join(sources, 'command.mjs'),
    '#!/usr/bin/env node\nexport const commandUrl = import.meta.url;\n',
  );
  writeFileSync(
    join(sources, 'entry.test.ts'),
    [
      "import pg from 'pg';",
      "import { Type } from 'typebox';",
      "export { answer, besideUrl } from './beside.ts';",
      "export { commandUrl } from './command.mjs';",
      'export const entryUrl = import.meta.url;',
      'export const schemaType: string = Type.String().type;',
      'export const poolType = typeof pg.Pool;',
      '',
    ].join('\n'),
  );
  [bundle] = await bundleTestFiles([[join(sources, 'entry.test.ts')]], bundles);
});
after(() => {
  rmSync(sources, { recursive: true, force: true });
  rmSync(bundles, { recursive: true, force: true });
});

test('a bundled source keeps its own address, a command included', async () => {
  assert.ok(bundle.startsWith(bundles) && bundle.endsWith('entry.test.mjs'), bundle);
  const loaded = await import(pathToFileURL(bundle).href);
  assert.equal(loaded.entryUrl, pathToFileURL(join(sources, 'entry.test.ts')).href);
  assert.equal(loaded.besideUrl, pathToFileURL(join(sources, 'beside.ts')).href);
  assert.equal(loaded.commandUrl, pathToFileURL(join(sources, 'command.mjs')).href);
  assert.equal(loaded.answer(), 42);
});

test('a package of many small files is in the bundle; the others load from node_modules', async () => {
  const loaded = await import(pathToFileURL(bundle).href);
  assert.equal(loaded.schemaType, 'string');
  assert.equal(loaded.poolType, 'function');
  const written = [bundle, ...chunksOf(bundle)].map((file) => readFileSync(file, 'utf8')).join('\n');
  assert.match(written, /from "pg"/);
  assert.doesNotMatch(written, /from "typebox"/);
});

test('coverage of a bundle names the source each function that ran was written in', async () => {
  const { answer } = await import(pathToFileURL(bundle).href);
  const inspector = new Session();
  inspector.connect();
  try {
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    await inspector.post('Profiler.takePreciseCoverage');
    answer();
    const { result } = await inspector.post('Profiler.takePreciseCoverage');
    const ran = [...sourceFilesThatRan(result)].filter((url) => url.startsWith(pathToFileURL(sources).href));
    assert.deepEqual(ran, [pathToFileURL(join(sources, 'beside.ts')).href]);
  } finally {
    await inspector.post('Profiler.stopPreciseCoverage');
    inspector.disconnect();
  }
});

test("the report gives a bundle's process's time to the test file it was made from, once", async () => {
  const times = join(bundles, 'times.txt');
  const saved = { dir: process.env.TEST_BUNDLES_DIR, times: process.env.TEST_TIMES_FILE };
  process.env.TEST_BUNDLES_DIR = bundles;
  process.env.TEST_TIMES_FILE = times;
  try {
    // The process's end may come before its tests' (the runner reorders them): its time is the file's.
    async function* events() {
      yield {
        type: 'test:complete' as const,
        data: { file: bundle, name: bundle, nesting: 0, details: { duration_ms: 1500 } },
      };
      yield {
        type: 'test:complete' as const,
        data: { file: bundle, name: 'a test of the file', nesting: 0, details: { duration_ms: 900 } },
      };
    }
    const lines: string[] = [];
    for await (const line of report(events() as never)) lines.push(String(line));
    const entry = relative(ROOT, join(sources, 'entry.test.ts'));
    assert.equal(readFileSync(times, 'utf8'), `1.5\t${entry}\n`);
  } finally {
    restore('TEST_BUNDLES_DIR', saved.dir);
    restore('TEST_TIMES_FILE', saved.times);
  }
});

/**
 * Bundles the files of `sources` named in `groups` (one process each) and runs them with a runner of its own,
 * one process at a time, with the report's variables; resolves to how many files the runner was given.
 */
async function runBundled(groups: string[][], more: { reporter?: string; timesFile?: string } = {}) {
  const out = mkdtempSync(join(CACHE, 'test-bundles-run-'));
  try {
    const files = await bundleTestFiles(
      groups.map((names) => names.map((name) => join(sources, `${name}.test.ts`))),
      out,
    );
    // Without the variable that tells a file it runs under this test's runner.
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    const reporter = more.reporter ? [`--test-reporter=${more.reporter}`] : [];
    // As `npm test` runs them: a test's place is then read through its bundle's source map.
    const runner = ['--enable-source-maps', '--test', '--test-concurrency=1', ...reporter];
    const run = spawnSync(process.execPath, [...runner, ...files], {
      encoding: 'utf8',
      env: { ...env, TEST_BUNDLES_DIR: out, ...(more.timesFile ? { TEST_TIMES_FILE: more.timesFile } : {}) },
    });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    return files.length;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Writes `sources/<name>.test.ts`, which appends its name and its process's id to `log` as it runs. */
function writeLoggingTest(name: string, log: string) {
  writeFileSync(
    join(sources, `${name}.test.ts`),
    [
      "import { appendFileSync } from 'node:fs';",
      "import { test } from 'node:test';",
      `test('${name}', () => appendFileSync(${JSON.stringify(log)}, \`${name} \${process.pid}\\n\`));`,
      '',
    ].join('\n'),
  );
}

/** The lines `log` holds, each as its name and process id. */
const logged = (log: string) =>
  readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split(' '));

test('the runner starts the bundled files in the order they were given, not by their names', async () => {
  const started = join(sources, 'started.txt');
  const order = ['zeta', 'alpha', 'mu'];
  for (const name of order) writeLoggingTest(name, started);
  await runBundled(order.map((name) => [name]));
  assert.deepEqual(
    logged(started).map(([name]) => name),
    order,
  );
});

test("files that share a process run in it one after the other, and the report gives each its tests' time", async () => {
  const ran = join(sources, 'ran.txt');
  const times = join(sources, 'times.txt');
  const names = ['first', 'second', 'third'];
  for (const name of names) writeLoggingTest(name, ran);
  const processes = await runBundled([names.slice(0, 2), ['third']], {
    reporter: join(ROOT, 'scripts/test-report.mjs'),
    timesFile: times,
  });
  assert.equal(processes, 2);
  const lines = logged(ran);
  assert.deepEqual(
    lines.map(([name]) => name),
    names,
    'in the order given',
  );
  assert.equal(lines[0][1], lines[1][1], 'the first two in one process');
  assert.notEqual(lines[2][1], lines[0][1], 'the third in its own');
  const timed = readFileSync(times, 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split('\t')[1])
    .sort();
  assert.deepEqual(timed, names.map((name) => relative(ROOT, join(sources, `${name}.test.ts`))).sort());
});

function restore(name: string, value: string | undefined) {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

/** The chunks a bundle imports, read from its import lines. */
function chunksOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/from "(\.{1,2}\/[^"]+)"/g)].map((m) =>
    fileURLToPath(new URL(m[1], pathToFileURL(file))),
  );
}
