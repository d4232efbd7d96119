// The test runner's report: the usual one (spec in a terminal, TAP otherwise, as `node --test` chooses), then
// the slowest test files, so that a slow file is seen where it is added. Each file's time is its own
// process's, from its start to its end.
import { Readable } from 'node:stream';
import { spec, tap } from 'node:test/reporters';

/** How many of the slowest files are listed. */
const SHOWN = 20;

/** @param {AsyncIterable<import('node:test/reporters').TestEvent>} source the runner's events */
export default async function* report(source) {
  /** each test file's time, in ms */
  const files = new Map();
  async function* watched() {
    for await (const event of source) {
      if (event.type === 'test:complete') {
        const { file, name, nesting, details } = event.data;
        if (file && name === file && nesting === 0) files.set(file, details.duration_ms);
      }
      yield event;
    }
  }
  if (process.stdout.isTTY) yield* Readable.from(watched()).pipe(new spec());
  else yield* tap(watched());
  const slowest = [...files].sort((a, b) => b[1] - a[1]).slice(0, SHOWN);
  if (slowest.length < 2) return;
  const root = `${process.cwd()}/`;
  yield `# the ${slowest.length} slowest test files\n`;
  for (const [file, ms] of slowest)
    yield `#   ${(ms / 1000).toFixed(1).padStart(7)} s  ${file.startsWith(root) ? file.slice(root.length) : file}\n`;
}
