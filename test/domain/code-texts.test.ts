import assert from 'node:assert/strict';
import { test } from 'node:test';
import { codeText } from '../../src/domain/messaging/texts.ts';
import { LANGUAGES } from '../../src/i18n/languages.ts';

// A code's SMS, in every language, is read by Android's SMS User Consent API (the code is the text's one run of
// 4 to 10 digits, the WebOTP line aside), by its SMS Retriever (each app's hash on a line of its own, once) and
// by browsers' WebOTP (the last line).

test('in every language: the code is the one run of 4-10 digits, each hash is on its own line, WebOTP last', () => {
  for (const language of LANGUAGES) {
    const text = codeText(
      '482916',
      { webOtpHost: 'login.example.com', appHashes: ['FA+9qCX9VSu', 'Xb3kP0q9Lmn', 'FA+9qCX9VSu'] },
      language,
    );
    const lines = text.split('\n');
    assert.deepEqual(lines.slice(-3), ['FA+9qCX9VSu', 'Xb3kP0q9Lmn', '@login.example.com #482916'], language);
    const body = lines.slice(0, -3).join('\n');
    assert.deepEqual(body.match(/\d{4,10}/g), ['482916'], `${language}: ${body}`);
  }
});
