import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  allTestFiles,
  drivesBrowser,
  sameOnEitherDatabase,
  testFiles,
  testGroups,
  touchesItsProcess,
} from '../../scripts/test-files.mjs';

const onPostgres = { TEST_DATABASE_URL: 'postgres://127.0.0.1/test' };

test('on PGlite every test file runs', () => {
  assert.deepEqual([...testFiles({})].sort(), allTestFiles());
  assert.ok(allTestFiles().length > 100);
});

test('the files that drive Chromium run first, on either database', () => {
  for (const env of [{}, onPostgres]) {
    const files = testFiles(env);
    const browsing = files.filter((file) => drivesBrowser(file));
    assert.ok(browsing.includes('test/pages/hosted-look.test.ts'));
    assert.ok(!browsing.includes('test/rest/signin.test.ts'));
    assert.deepEqual(files.slice(0, browsing.length), browsing);
  }
});

test('on PostgreSQL + Redis the files the database matters to run, and only those', () => {
  const chosen = testFiles(onPostgres);
  // Through the test app and its database helper.
  assert.ok(chosen.includes('test/rest/signin.test.ts'));
  // Through a helper that imports the test app.
  assert.ok(chosen.includes('test/cli/kyc-commands.test.ts'));
  // Naming the test database itself, without a helper that does.
  assert.ok(chosen.includes('test/cli/serve.test.ts'));
  assert.ok(chosen.includes('test/storage/pgbouncer.test.ts'));
  // Never touching a database: the house's checks, commands against a server on PGlite of its own.
  for (const file of [
    'test/house/layers.test.ts',
    'test/cli/admin-commands.test.ts',
    'test/docs/decisions.test.ts',
  ])
    assert.ok(!chosen.includes(file), file);
  assert.deepEqual([...chosen, ...sameOnEitherDatabase()].sort(), allTestFiles());
});

test('files share a process a few at a time, in their order; one that drives Chromium or touches its process runs alone', () => {
  for (const env of [{}, onPostgres]) {
    const files = testFiles(env);
    const groups = testGroups(files);
    assert.deepEqual(groups.flat(), files);
    assert.ok(groups.length < files.length / 2, `${groups.length} processes for ${files.length} files`);
    for (const group of groups) {
      assert.ok(group.length >= 1 && group.length <= 4, group.join(', '));
      if (group.length > 1)
        for (const file of group) assert.ok(!drivesBrowser(file) && !touchesItsProcess(file), file);
    }
  }
  const alone = (file: string) => testGroups(testFiles({})).some((g) => g.length === 1 && g[0] === file);
  // Chromium; its environment; its memory; the libraries it has loaded.
  for (const file of [
    'test/pages/hosted-look.test.ts',
    'test/service/tracing.test.ts',
    'test/service/heap-growth.test.ts',
  ])
    assert.ok(alone(file), file);
});

test('a file that touches its process through a helper it imports runs alone too', () => {
  // Under test/, where the imports are followed; named so that no run takes them for test files.
  const folder = mkdtempSync(join(process.cwd(), 'test', '.touches-'));
  try {
    writeFileSync(
      join(folder, 'helper.ts'),
      'export const mark = () => {\n  globalThis.marked = true;\n};\n',
    );
    writeFileSync(join(folder, 'quiet-helper.ts'), 'export const answer = () => 42;\n');
    writeFileSync(join(folder, 'uses-helper.ts'), "import { mark } from './helper.ts';\nmark();\n");
    writeFileSync(join(folder, 'uses-quiet.ts'), "import { answer } from './quiet-helper.ts';\nanswer();\n");
    assert.equal(touchesItsProcess(join(folder, 'uses-helper.ts')), true);
    assert.equal(touchesItsProcess(join(folder, 'uses-quiet.ts')), false);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
