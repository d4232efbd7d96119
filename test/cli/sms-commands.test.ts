import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startCliServer } from '../helpers/cli-server.ts';

test('`callsign sms` shows the traffic per country and holds a breaker, on the running server', async () => {
  const { base, cli: run, stop } = await startCliServer('sms-cli', {});
  const cli = (...args: string[]) => run('sms', ...args);
  try {
    // A code to a US number, which nobody enters.
    const sent = await fetch(`${base}/auth/otp/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone: '+12125550199', purpose: 'signup' }),
    });
    assert.equal(sent.status, 200);
    const countries = cli('countries');
    assert.equal(countries.code, 0, countries.err);
    assert.match(countries.out, /US\s+1\s+0\s+0%\s+0\s+closed\s+-/);
    const held = cli('breaker', 'us', 'open');
    assert.equal(held.code, 0, held.err);
    assert.match(held.out, /US: held open/);
    assert.match(cli('countries').out, /US\s+1\s+0\s+0%\s+0\s+open\s+open/);
    assert.match(cli('breaker', 'US', 'auto').out, /US: decided by its traffic/);
    const json = JSON.parse(cli('countries', '--json').out);
    assert.equal(json.data[0].override, null);
    const bad = cli('breaker', 'US', 'sideways');
    assert.equal(bad.code, 1);
    assert.match(bad.err, /sms breaker COUNTRY open\|closed\|auto/);
  } finally {
    await stop();
  }
});
