import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IntlMessageFormat } from 'intl-messageformat';
import { ConfigError, loadConfig } from '../../src/config/config.ts';
import {
  acceptedLanguages,
  CATALOGS,
  SOURCE as en,
  LANGUAGES,
  pickLanguage,
  translate,
} from '../../src/i18n/languages.ts';

// Every language is complete: each key of the English source, with the same placeholders, each plural with
// its `other` case; and a request's wishes pick a language as documented.

interface Node {
  type: number;
  value?: string;
  options?: Record<string, { value: Node[] }>;
}

/** The placeholders a message uses (arguments, plurals, selects), however deep. */
function placeholders(nodes: Node[], found = new Set<string>()): Set<string> {
  for (const node of nodes) {
    // 1 argument, 2 number, 3 date, 4 time, 5 select, 6 plural (the parser's node types)
    if (node.type >= 1 && node.type <= 6 && node.value) found.add(node.value);
    if (node.type === 5 || node.type === 6) {
      assert.ok(node.options?.other, `${node.value} has an "other" case`);
      for (const option of Object.values(node.options ?? {})) placeholders(option.value, found);
    }
  }
  return found;
}

test('ten languages, each with every key and the same placeholders as English', () => {
  assert.deepEqual(LANGUAGES, ['en', 'es', 'pt-BR', 'fr', 'hi', 'id', 'ar', 'sw', 'tr', 'bn']);
  for (const language of LANGUAGES) {
    const catalog = CATALOGS[language] as Record<string, string>;
    assert.deepEqual(Object.keys(catalog).sort(), Object.keys(en).sort(), `${language}: the same keys`);
    for (const [key, source] of Object.entries(en)) {
      const ast = (m: string, l: string) => new IntlMessageFormat(m, l).getAst() as unknown as Node[];
      assert.deepEqual(
        [...placeholders(ast(catalog[key], language))].sort(),
        [...placeholders(ast(source, 'en'))].sort(),
        `${language} ${key}: the same placeholders`,
      );
    }
  }
});

test('plurals follow each language’s rules', () => {
  assert.match(translate('en', 'phone.code', { code: '123456', minutes: 1 }), /expires in 1 minute\./);
  assert.match(translate('en', 'phone.code', { code: '123456', minutes: 5 }), /expires in 5 minutes\./);
  assert.match(translate('ar', 'phone.code', { code: '123456', minutes: 5 }), /5 دقائق/);
  assert.match(translate('ar', 'phone.code', { code: '123456', minutes: 2 }), /دقيقتين/);
});

test('a language is picked from the wishes in order, by tag then by language, else the fallback', () => {
  assert.equal(pickLanguage(['xx', 'pt-PT', 'en'], 'en'), 'pt-BR');
  assert.equal(pickLanguage([undefined, 'HI-in'], 'en'), 'hi');
  assert.equal(pickLanguage(['zz'], 'fr'), 'fr');
  assert.deepEqual(acceptedLanguages('en;q=0.5, sw-KE, fr;q=0, de;q=0.9, *'), ['sw-KE', 'de', 'en']);
});

test('DEFAULT_LANGUAGE must be a language Callsign speaks', () => {
  assert.throws(
    () => loadConfig({ DEFAULT_LANGUAGE: 'de' }),
    (err: unknown) =>
      err instanceof ConfigError && err.problems.some((p) => p.startsWith('DEFAULT_LANGUAGE')),
  );
  assert.equal(loadConfig({ DEFAULT_LANGUAGE: 'pt-BR' }).defaultLanguage, 'pt-BR');
});
