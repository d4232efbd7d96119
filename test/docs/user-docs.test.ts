import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

// The README and the guides in docs/ are for the people who run and integrate Callsign: short enough to read,
// linked from the README, and free of the project's internal bookkeeping (decision and session numbers).

const ROOT = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');

/** docs/ pages written for engineers working on Callsign itself, where decision numbers are the pointers. */
const FOR_CONTRIBUTORS = new Set([
  'decisions.md',
  'architecture.md',
  'benchmark-history.md',
  'spec-decisions.md',
]);
const USER_DOCS = [
  'README.md',
  ...readdirSync(new URL('docs/', ROOT))
    .filter((f) => f.endsWith('.md') && !FOR_CONTRIBUTORS.has(f))
    .map((f) => `docs/${f}`),
];

describe('user-facing docs', () => {
  test('the README starts with the two commands, has a table of contents, and stays under 300 lines', () => {
    const readme = read('README.md');
    const lines = readme.split('\n');
    assert.ok(lines.length <= 300, `${lines.length} lines`);
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    assert.ok(readme.indexOf('```sh') < 40, 'the commands come first');
    assert.match(firstBlock, /^npm ci && npm start/m);
    assert.match(firstBlock, /^npm ci && npm test/m);
    assert.match(readme, /^## Contents$/m);
  });

  test('every page the README links to exists, and every guide in docs/ is linked', () => {
    const readme = read('README.md');
    const linked = new Set([...readme.matchAll(/\]\((docs\/[^)#]+)/g)].map((m) => m[1]));
    for (const path of linked) assert.ok(existsSync(new URL(path, ROOT)), `${path} exists`);
    for (const page of USER_DOCS.filter((p) => p.startsWith('docs/')))
      assert.ok(linked.has(page), `the README links ${page}`);
  });

  test('no decision numbers, session numbers or issue numbers', () => {
    for (const page of USER_DOCS) {
      const text = read(page);
      for (const [pattern, what] of [
        [/\b[DP]\d{1,3}\b/, 'a decision number'],
        [/\bsessions? \d+/i, 'a session number'],
        [/\bissue \d+/i, 'an issue number'],
      ] as const) {
        const found = pattern.exec(text);
        assert.equal(
          found,
          null,
          `${page} cites ${what}: ${found && text.slice(found.index - 40, found.index + 20)}`,
        );
      }
    }
  });
});
