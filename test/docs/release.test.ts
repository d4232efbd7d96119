import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.ts';

// What a team's legal and release review reads: the licence, each package's licence field, a changelog whose
// newest release is the version the service reports.

const ROOT = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');
const PACKAGES = ['package.json', 'packages/client/package.json'];

describe('licence and releases', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('LICENSE is the Apache License 2.0, and every package.json says so', () => {
    const licence = read('LICENSE');
    assert.match(licence, /^\s*Apache License\n\s*Version 2\.0, January 2004/);
    assert.match(licence, /END OF TERMS AND CONDITIONS/);
    for (const file of PACKAGES) assert.equal(JSON.parse(read(file)).license, 'Apache-2.0', file);
  });

  test('CHANGELOG.md keeps a changelog; its newest release is the version /health reports', async () => {
    const changelog = read('CHANGELOG.md');
    assert.match(changelog, /Keep a Changelog/);
    assert.match(changelog, /^## \[Unreleased\]$/m);
    const newest = /^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$/m.exec(changelog)?.[1];
    const version = JSON.parse(read('package.json')).version;
    assert.equal(newest, version);
    assert.equal((await t.request('GET', '/health')).body.version, version);
  });
});
