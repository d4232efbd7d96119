import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import { createLogger } from '../../src/observability/logger.ts';

/** The escape character that starts a terminal's colour codes. */
const ESCAPE = String.fromCharCode(27);

/** A stream that keeps what is written to it, and says whether it is a terminal. */
function capture(isTTY: boolean) {
  const chunks: string[] = [];
  const stream = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        chunks.push(String(chunk));
        done();
      },
    }),
    { isTTY },
  );
  return { stream, text: () => chunks.join('') };
}

describe('log format: pretty on a terminal, JSON otherwise', () => {
  test('auto writes one JSON object per line when the output is not a terminal', () => {
    const out = capture(false);
    createLogger('info', out.stream).info({ attempt: { pin: '1234' } }, 'service started');
    const line = JSON.parse(out.text());
    assert.equal(line.msg, 'service started');
    assert.equal(line.attempt.pin, '[redacted]');
  });

  test('auto writes readable, coloured lines on a terminal, still without secrets', () => {
    const out = capture(true);
    createLogger('info', out.stream).info({ attempt: { pin: '1234' } }, 'service started');
    const text = out.text();
    assert.throws(() => JSON.parse(text));
    assert.match(text, /INFO/);
    assert.match(text, /service started/);
    assert.ok(text.includes(`${ESCAPE}[`), 'coloured for the terminal');
    assert.doesNotMatch(text, /1234/);
    assert.match(text, /\[redacted\]/);
  });

  test('LOG_FORMAT=json keeps JSON on a terminal; pretty gives lines without colour off one', () => {
    const json = capture(true);
    createLogger('info', json.stream, 'json').info('hello');
    assert.equal(JSON.parse(json.text()).msg, 'hello');
    const pretty = capture(false);
    createLogger('info', pretty.stream, 'pretty').info('hello');
    assert.match(pretty.text(), /INFO.*hello/);
    assert.ok(!pretty.text().includes(ESCAPE), 'no colour off a terminal');
  });
});
