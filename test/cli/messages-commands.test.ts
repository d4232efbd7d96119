import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startCliServer } from '../helpers/cli-server.ts';

test('`callsign messages list|show` read the messages the running server sent', async () => {
  const { base, cli: run, stop } = await startCliServer('messages-cli', {});
  const cli = (...args: string[]) => run('messages', ...args);
  try {
    const sent = await fetch(`${base}/auth/otp/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone: '+12125550177', purpose: 'signup' }),
    });
    assert.equal(sent.status, 200);
    const list = cli('list', '--phone', '+12125550177');
    assert.equal(list.code, 0, list.err);
    assert.match(list.out, /\+1\*{6}0177\s+sms\s+console\s+queued/);
    const [message] = JSON.parse(cli('list', '--json').out).data;
    const shown = cli('show', message.id);
    assert.equal(shown.code, 0, shown.err);
    assert.match(shown.out, /a code to \+1\*{6}0177 \(US\) by sms, queued/);
    assert.match(shown.out, /1\. console \(sms\): taken, \d+ ms/);
    assert.equal(cli('list', '--status', 'delivered').out.includes('0177'), false, 'filtered by status');
    const missing = cli('show', '00000000-0000-0000-0000-000000000000');
    assert.equal(missing.code, 1);
    assert.match(missing.err, /no message has this id/);
  } finally {
    await stop();
  }
});
