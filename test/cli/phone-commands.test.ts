import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startCliServer } from '../helpers/cli-server.ts';
import { type NumberTable, ownService } from '../helpers/sim-vendors.ts';
import { VendorServer } from '../helpers/vendor-server.ts';

const PHONE = '+14155550131';

test('`callsign phone checks|clear`: an operator sees the swap, clears the account for 24 hours, and the trail keeps it', async () => {
  const numbers: NumberTable = new Map([[PHONE, { swapped: true }]]);
  const vendor = new VendorServer(ownService(numbers));
  const simCheckUrl = await vendor.start();
  const { base, cli, stop } = await startCliServer('phone-cli', {
    TEST_PHONE_NUMBERS: `${PHONE}=000000`,
    SIM_CHECK_PROVIDER: 'http',
    SIM_CHECK_HTTP_URL: simCheckUrl,
  });
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  const resetCode = async () => {
    await post('/auth/otp/send', { phone: PHONE, purpose: 'pin_reset' });
    return post('/auth/otp/verify', { phone: PHONE, purpose: 'pin_reset', code: '000000' });
  };
  try {
    await post('/auth/otp/send', { phone: PHONE, purpose: 'signup' });
    const signup = await post('/auth/otp/verify', { phone: PHONE, purpose: 'signup', code: '000000' });
    const created = await post('/auth/signup', {
      temp_token: signup.body.data.temp_token,
      pin: '482916',
      handle: 'ama_k',
    });
    const userId = created.body.data.user.id as string;
    assert.equal((await resetCode()).status, 403);

    const checks = cli('phone', 'checks', userId, '--json');
    assert.equal(checks.code, 0, checks.err);
    const risk = JSON.parse(checks.out);
    assert.equal(risk.checks[0].outcome, 'swapped');
    assert.equal(risk.checks[0].provider, 'http');
    assert.match(cli('phone', 'checks', userId).out, /sim_swap\s+swapped/);

    const cleared = cli('phone', 'clear', userId);
    assert.equal(cleared.code, 0, cleared.err);
    assert.match(cleared.out, /^cleared until \d{4}-/);
    assert.equal((await resetCode()).status, 200, 'the cleared account goes through');
    const trail = JSON.parse(cli('actions', 'list', '--limit', '1', '--json').out);
    assert.equal(trail.data[0].route, '/admin/v1/users/:id/phone-risk/clear');
    assert.equal(cli('phone', 'clear', '00000000-0000-4000-8000-000000000000').code, 1, 'an unknown account');
  } finally {
    await stop();
    await vendor.close();
  }
});
