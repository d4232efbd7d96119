import { existsSync, readFileSync } from 'node:fs';
import type { Profiler } from 'node:inspector';
import { SourceMap } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The files whose functions ran, by their addresses, from V8's precise coverage. A script from the sources
 * is its own file. `npm test` runs a test file bundled with the sources it reaches (scripts/test-build.mjs):
 * there each function that ran is found in the bundle's source map, and its file is the one it was written in.
 */
export function sourceFilesThatRan(scripts: Profiler.ScriptCoverage[]): Set<string> {
  const files = new Set<string>();
  for (const script of scripts) {
    const ran = script.functions.filter((f) => f.ranges[0].count > 0);
    if (ran.length === 0 || !script.url.startsWith('file://')) continue;
    const mapFile = `${fileURLToPath(script.url)}.map`;
    if (!existsSync(mapFile)) {
      files.add(script.url);
      continue;
    }
    const { bundle, map } = bundleOf(script.url, mapFile);
    for (const fn of ran) {
      const { line, column } = bundle.at(fn.ranges[0].startOffset);
      const entry = map.findEntry(line, column);
      // A function the bundler wrote itself has no place in a source; the mapping before it is another's.
      if (!('originalSource' in entry) || entry.generatedLine !== line) continue;
      files.add(new URL(entry.originalSource, pathToFileURL(mapFile)).href);
    }
  }
  return files;
}

/** Each bundle's lines and source map, read once: a test takes its coverage again for every request. */
const bundles = new Map<string, { bundle: BundleLines; map: SourceMap }>();
function bundleOf(url: string, mapFile: string): { bundle: BundleLines; map: SourceMap } {
  let read = bundles.get(url);
  if (!read) {
    read = {
      bundle: new BundleLines(readFileSync(fileURLToPath(url), 'utf8')),
      map: new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8'))),
    };
    bundles.set(url, read);
  }
  return read;
}

/** A script's text, to turn an offset into it into a line and a column (both from 0, as source maps count). */
class BundleLines {
  readonly #starts: number[] = [0];
  constructor(text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.#starts.push(i + 1);
  }
  at(offset: number): { line: number; column: number } {
    let low = 0;
    let high = this.#starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.#starts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low, column: offset - this.#starts[low] };
  }
}
