import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

// The decision pages are history, the code is the truth: each decision says whether it is still in force (or
// what replaced it), and every file of the repository it names still exists where it says.

const ROOT = new URL('../../', import.meta.url).pathname;
const PAGES = join(ROOT, 'docs/decisions');
/** Where a file a decision names may live: it names it from the repository, `src/`, a layer or `test/`. */
const BASES = [
  '',
  'src/',
  'src/domain/',
  'src/http/',
  'src/storage/',
  'test/',
  'docs/',
  'packages/client/',
  'packages/client/src/',
];
/** Names that are not files of the repository: made at run time or by a build, or a URL. */
const NOT_IN_THE_REPOSITORY = ['DATA_DIR/secrets.json', 'dist/callsign.mjs'];

const pages = () =>
  readdirSync(PAGES)
    .filter((name) => name.endsWith('.md'))
    .map((name) => ({ name, text: readFileSync(join(PAGES, name), 'utf8') }));

/** Each decision of a page: from its `- Pn.` line to the next one (or the end). */
const decisions = (text: string) =>
  text
    .split(/^(?=- P\d+\. )/m)
    .filter((part) => /^- P\d+\. /.test(part))
    .map((part) => ({ id: /^- (P\d+)\./.exec(part)?.[1] as string, text: part }));

test('every decision has a status line: in force, or what replaced it', () => {
  const without = pages().flatMap(({ name, text }) =>
    decisions(text)
      .filter((d) => !/^ {2}Status: (in force|replaced by P\d+|changed by P\d+)/m.test(d.text))
      .map((d) => `${name} ${d.id}`),
  );
  assert.deepEqual(without, []);
  assert.ok(pages().flatMap(({ text }) => decisions(text)).length > 100);
});

test('every file a decision names still exists', () => {
  const dead = pages().flatMap(({ name, text }) =>
    [...text.matchAll(/`([\w.-]+\/[\w./-]+\.(?:ts|js|mjs|md|json|sh))`/g)]
      .map((m) => m[1])
      .filter((file) => !NOT_IN_THE_REPOSITORY.includes(file))
      .filter((file) => !BASES.some((base) => existsSync(join(ROOT, base, file))))
      .map((file) => `${name}: ${file}`),
  );
  assert.deepEqual(dead, []);
});
