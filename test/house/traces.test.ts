import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

// A request is followed in few files: docs/architecture.md traces sign-in, a refresh and a code's send, each
// in at most eight files of logic read once, and the files it names exist. The SMS defence alone keeps its
// ledger: no other room reads or writes the traffic counts, and the codes room asks the defence rather than
// its parts.

const ROOT = new URL('../../', import.meta.url).pathname;
const SRC = join(ROOT, 'src');
const MOST_FILES_IN_A_TRACE = 8;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Each `### Trace:` section of the architecture page: its title and the first file each step names. */
function traces(): Array<{ title: string; files: string[] }> {
  const page = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  return page
    .split(/^### /m)
    .filter((section) => section.startsWith('Trace:'))
    .map((section) => ({
      title: section.split('\n')[0],
      files: [...section.matchAll(/^\d+\. `([^`]+)`/gm)].map((m) => m[1]),
    }));
}

test('the architecture page traces sign-in, a refresh and a code send, each in at most eight files read once', () => {
  const all = traces();
  for (const route of ['POST /auth/signin', 'refresh_token', 'POST /auth/otp/send'])
    assert.ok(
      all.some((t) => t.title.includes(route)),
      `no trace of ${route}`,
    );
  for (const { title, files } of all) {
    assert.ok(files.length > 0 && files.length <= MOST_FILES_IN_A_TRACE, `${title}: ${files.length} files`);
    assert.equal(new Set(files).size, files.length, `${title}: a file is visited twice`);
    for (const file of files) {
      const path = join(SRC, file.replace('<vendor>.ts', ''));
      assert.ok(existsSync(path), `${title}: ${file} does not exist`);
    }
  }
});

test('only the SMS defence reads and writes the traffic counts; the codes room asks the defence itself', () => {
  const importers = (target: RegExp) =>
    sourceFiles(SRC)
      .filter((file) => target.test(readFileSync(file, 'utf8')))
      .map((file) => file.slice(SRC.length + 1));
  const traffic = importers(/from '[./]+\/storage\/repositories\/sms-traffic\.ts'/);
  assert.ok(traffic.length > 0);
  assert.deepEqual(
    traffic.filter((file) => !file.startsWith('domain/sms-defence/')),
    [],
  );
  const partsOfTheDefence = importers(/from '[./]+\/sms-defence\/(destinations|breaker)\.ts'/);
  assert.deepEqual(
    partsOfTheDefence.filter(
      (file) => file.startsWith('domain/codes/') || file.startsWith('domain/messaging/'),
    ),
    [],
  );
});
