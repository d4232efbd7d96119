import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

// The SMS defence alone keeps its ledger: no other room reads or writes the traffic counts, and the codes room
// asks the defence rather than its parts. (The architecture page's traces are checked by running them:
// request-traces.test.ts.)

const ROOT = new URL('../../', import.meta.url).pathname;
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

test('only the SMS defence reads and writes the traffic counts; the codes room asks the defence itself', () => {
  const importers = (target: RegExp) =>
    sourceFiles(SRC)
      .filter((file) => target.test(readFileSync(file, 'utf8')))
      .map((file) => file.slice(SRC.length + 1));
  const traffic = importers(/from '[./]+\/storage\/repositories\/sms-traffic\.ts'/);
  assert.ok(traffic.length > 0);
  assert.deepEqual(
    // Storage writes the count in the statement that stores a code; the defence decides it.
    traffic.filter((file) => !file.startsWith('domain/sms-defence/') && !file.startsWith('storage/')),
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
