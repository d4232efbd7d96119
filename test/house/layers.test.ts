import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { test } from 'node:test';

// One way down: http -> domain -> storage and providers; config imports nothing below it (only config itself,
// the languages and countries of i18n, and package.json), storage imports nothing of http and only types of
// config, domain nothing of http. Type-only imports count as imports here, .js files of src/ too, and no two
// files may import each other, however long the way round.

const SRC = new URL('../../src/', import.meta.url).pathname;
const IMPORT = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sourceFiles(join(dir, e.name))
      : /\.(ts|js|mjs)$/.test(e.name)
        ? [join(dir, e.name)]
        : [],
  );
}

/** Each file of src/ (relative to it) and the files of src/ it imports. */
const graph = new Map(
  sourceFiles(SRC).map((file) => {
    const text = readFileSync(file, 'utf8');
    const imports = [...text.matchAll(IMPORT)].map((m) =>
      relative(SRC, normalize(join(dirname(file), m[1]))),
    );
    return [relative(SRC, file), imports.filter((i) => !i.startsWith('..'))] as const;
  }),
);
const layerOf = (file: string) => file.split('/')[0];

/** What a layer may not import, and why. */
const FORBIDDEN: Record<string, { layers: string[]; typesAllowed?: string[] }> = {
  config: { layers: ['domain', 'storage', 'http'] },
  storage: { layers: ['http', 'config'], typesAllowed: ['config'] },
  domain: { layers: ['http'] },
};

/** The only places config may import from: what it is made of, below which nothing may sit. */
const CONFIG_MAY_IMPORT = ['config', 'i18n'];

test('config imports nothing below it', () => {
  const wrong = [...graph]
    .filter(([file]) => layerOf(file) === 'config')
    .flatMap(([file, imports]) =>
      imports.filter((target) => !CONFIG_MAY_IMPORT.includes(layerOf(target))).map((t) => `${file} -> ${t}`),
    );
  assert.deepEqual(wrong, []);
});

test('every import goes one way down', () => {
  const wrong: string[] = [];
  for (const [file, imports] of graph) {
    const rule = FORBIDDEN[layerOf(file)];
    if (!rule) continue;
    const text = readFileSync(join(SRC, file), 'utf8');
    for (const target of imports) {
      const layer = layerOf(target);
      if (!rule.layers.includes(layer)) continue;
      const spec = relative(dirname(join(SRC, file)), join(SRC, target));
      const typeOnly = new RegExp(`import type [^;]*from '(\\./)?${spec.replace(/[.]/g, '\\.')}'`).test(text);
      if (typeOnly && rule.typesAllowed?.includes(layer)) continue;
      wrong.push(`${file} -> ${target}`);
    }
  }
  assert.deepEqual(wrong, []);
});

test('no import circle between files', () => {
  const circles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') circles.push([...path.slice(path.indexOf(next)), next].join(' -> '));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  assert.deepEqual(circles, []);
});

test('every error surface answers in src/http/errors/, each table total over the domain codes', () => {
  const tables: string[] = [];
  for (const [file] of graph) {
    const text = readFileSync(join(SRC, file), 'utf8');
    if (/Partial<Record<ErrorCode/.test(text)) tables.push(`${file}: a partial table of codes`);
    const mapsCodes = /Record<ErrorCode,/.test(text) || /setErrorHandler\(\s*\(/.test(text);
    if (mapsCodes && !file.startsWith('http/errors/') && !file.startsWith('domain/'))
      tables.push(`${file}: maps errors outside http/errors/`);
  }
  assert.deepEqual(tables, []);
});
