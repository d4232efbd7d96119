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
