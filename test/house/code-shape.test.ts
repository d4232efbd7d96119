import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

// The shape a newcomer can find their way in: small files, and statements whose values are named where
// they are used. Functions stay under 80 lines by the linter's rule (biome.json, noExcessiveLinesPerFunction).

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const MAX_FILE_LINES = 250;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

test(`no source file is over ${MAX_FILE_LINES} lines`, () => {
  const long = sourceFiles(SRC)
    .map((path) => ({
      path: path.slice(SRC.length),
      lines: readFileSync(path, 'utf8').split('\n').length - 1,
    }))
    .filter((f) => f.lines > MAX_FILE_LINES);
  assert.deepEqual(long, []);
});

test('no statement numbers its parameters by arithmetic: the sql tagged template names each value', () => {
  const arithmetic = sourceFiles(SRC)
    .filter((path) => !path.endsWith(join('storage', 'sql.ts')))
    .filter((path) => /\$\$\{/.test(readFileSync(path, 'utf8')))
    .map((path) => path.slice(SRC.length));
  assert.deepEqual(arithmetic, []);
});

test('every statement is written with the sql tagged template: none is sent as text with numbered parameters', () => {
  const runsText = (text: string) => /\.query(?:<[^>(]*>)?\(/.test(text);
  const numbers = (text: string) =>
    text.split('\n').some((line) => /\$[1-9]/.test(line) && !/\.replace\(/.test(line));
  // The driver's own files: db.ts, database-hosts.ts, which asks each host whether it takes writes,
  // listen.ts, whose LISTEN takes no parameters, traced-database.ts, which passes each statement on in a span,
  // and counted-database.ts, which passes it on counted.
  const drivers = [
    'sql.ts',
    'db.ts',
    'database-hosts.ts',
    'listen.ts',
    'traced-database.ts',
    'counted-database.ts',
  ].map((file) => join('storage', file));
  const found = sourceFiles(SRC)
    .filter((path) => !drivers.some((driver) => path.endsWith(driver)))
    .filter((path) => {
      const text = readFileSync(path, 'utf8');
      return runsText(text) || numbers(text);
    })
    .map((path) => path.slice(SRC.length));
  assert.deepEqual(found, []);
});

/** The comments of a source file: each `/* ... *\/` block, each run of `//` lines, each comment after code. */
function comments(text: string): string[] {
  const found: string[] = [];
  for (const block of text.matchAll(/\/\*[\s\S]*?\*\//g)) found.push(block[0]);
  const withoutBlocks = text.replace(/\/\*[\s\S]*?\*\//g, '');
  let run: string[] = [];
  for (const line of withoutBlocks.split('\n')) {
    const comment = /(?:^|\s)\/\/(.*)$/.exec(line);
    const alone = /^\s*\/\//.test(line);
    if (comment && alone) run.push(comment[1]);
    else {
      if (run.length) found.push(run.join('\n'));
      run = [];
      if (comment && !/['"`]/.test(line.slice(0, comment.index))) found.push(comment[1]);
    }
  }
  if (run.length) found.push(run.join('\n'));
  return found;
}

test('a comment cites at most one decision: it says the rule in words, and the number is the pointer', () => {
  const crowded = sourceFiles(SRC).flatMap((path) =>
    comments(readFileSync(path, 'utf8'))
      .filter((comment) => new Set(comment.match(/\b[DP]\d{1,3}\b/g) ?? []).size > 1)
      .map((comment) => `${path.slice(SRC.length)}: ${comment.replace(/\s+/g, ' ').slice(0, 140)}`),
  );
  assert.deepEqual(crowded, []);
});

test('no route casts its request input: the schema that validates a route also types it', () => {
  const casts = sourceFiles(join(SRC, 'http')).flatMap((path) =>
    readFileSync(path, 'utf8')
      .split('\n')
      .map((line, i) => ({ line: line.trim(), at: `${path.slice(SRC.length)}:${i + 1}` }))
      .filter(({ line }) => /request\.(body|query|params)\b[^;]*\bas\s+[A-Z{(]/.test(line))
      .map(({ line, at }) => `${at}: ${line}`),
  );
  assert.deepEqual(casts, []);
});

test('every doc comment sits on what it describes: none is left above another doc comment', () => {
  const orphaned = sourceFiles(SRC).flatMap((path) => {
    const text = readFileSync(path, 'utf8');
    return [...text.matchAll(/\/\*\*(?:(?!\*\/)[\s\S])*\*\/[ \t]*\n[ \t]*\/\*\*/g)].map(
      (m) => `${path.slice(SRC.length)}:${text.slice(0, m.index).split('\n').length}`,
    );
  });
  assert.deepEqual(orphaned, []);
});
