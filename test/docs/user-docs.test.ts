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

describe('links in the README and docs/', () => {
  const pages = [
    'README.md',
    ...readdirSync(new URL('docs/', ROOT))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
    ...readdirSync(new URL('docs/decisions/', ROOT)).map((f) => `docs/decisions/${f}`),
  ];
  /** GitHub's anchor of a heading: lower case, punctuation but - and _ dropped, spaces as hyphens. */
  const anchorOf = (heading: string) =>
    heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');

  test('every relative link points at a file (and heading) inside the repository; nothing names ../shared', () => {
    const root = new URL('.', ROOT).pathname;
    const wrong: string[] = [];
    for (const page of pages) {
      const text = read(page);
      if (text.includes('../shared')) wrong.push(`${page}: names ../shared, outside the repository`);
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        if (target.startsWith('#')) {
          const own = [...text.matchAll(/^#+ (.+)$/gm)].map((m) => anchorOf(m[1]));
          if (!own.includes(target.slice(1))) wrong.push(`${page}: ${target} names no heading of its own`);
          continue;
        }
        const [path, anchor] = target.split('#');
        const resolved = new URL(path, new URL(page, ROOT));
        if (!resolved.pathname.startsWith(root)) wrong.push(`${page}: ${target} leaves the repository`);
        else if (!existsSync(resolved)) wrong.push(`${page}: ${target} points at nothing`);
        else if (anchor && path.endsWith('.md')) {
          const headings = [...readFileSync(resolved, 'utf8').matchAll(/^#+ (.+)$/gm)].map((m) =>
            anchorOf(m[1]),
          );
          if (!headings.includes(anchor)) wrong.push(`${page}: ${target} names no heading there`);
        }
      }
    }
    assert.deepEqual(wrong, []);
  });

  test('configuration.md lists every rate limit with its default', async () => {
    const { DEFAULT_RATE_LIMITS } = await import('../../src/config/rate-limits.ts');
    const text = read('docs/configuration.md');
    for (const [name, { limit, windowSeconds }] of Object.entries(DEFAULT_RATE_LIMITS)) {
      const shown = limit === Number.MAX_SAFE_INTEGER ? 'no limit' : `${limit} / ${windowSeconds} s`;
      assert.ok(text.includes(`| \`${name}\` | ${shown} |`), `${name}: ${shown}`);
    }
  });

  test('operations.md lists every retention setting with its default, and configuration.md too', async () => {
    const { DEFAULT_RETENTION, RETENTION_VARIABLES } = await import('../../src/config/retention-settings.ts');
    const operations = read('docs/operations.md');
    const configuration = read('docs/configuration.md');
    for (const [variable, field] of RETENTION_VARIABLES) {
      const value = DEFAULT_RETENTION[field];
      const unit = variable.endsWith('_HOURS') ? 'hours' : value === 1 ? 'day' : 'days';
      const row = operations.split('\n').find((line) => line.includes(`| \`${variable}\` |`));
      assert.ok(
        row?.includes(`${value.toLocaleString('en')} ${unit}`),
        `${variable}: ${value} ${unit} in ${row}`,
      );
      assert.ok(configuration.includes(`| \`${variable}\` | \`${value}\` |`), variable);
    }
  });
});
