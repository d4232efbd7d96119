import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/config/config.ts';
import { problemsOf } from '../helpers/config-problems.ts';

// The SIM check settings are checked at start: the chosen provider's every missing setting is named, recycling
// needs a provider that answers it, and countries and the window must be what they say.

test('no provider by default: nothing is checked', () => {
  const { simCheck } = loadConfig({});
  assert.equal(simCheck.provider, undefined);
  assert.equal(simCheck.swapMaxAgeHours, 168);
  assert.equal(simCheck.failClosed, false);
});

test('each provider names every setting it lacks', () => {
  const camara = problemsOf({ SIM_CHECK_PROVIDER: 'camara' });
  for (const name of ['CAMARA_API_ROOT', 'CAMARA_TOKEN_URL', 'CAMARA_CLIENT_ID', 'CAMARA_CLIENT_SECRET'])
    assert.ok(
      camara.some((p) => p.startsWith(name)),
      `${name} in ${camara.join('; ')}`,
    );
  assert.ok(problemsOf({ SIM_CHECK_PROVIDER: 'twilio' }).some((p) => p.startsWith('TWILIO_AUTH_TOKEN')));
  assert.ok(problemsOf({ SIM_CHECK_PROVIDER: 'http' }).some((p) => p.startsWith('SIM_CHECK_HTTP_URL')));
  assert.ok(problemsOf({ SIM_CHECK_PROVIDER: 'lookup' }).some((p) => p.startsWith('SIM_CHECK_PROVIDER')));
});

test('recycling needs camara or http; countries are ISO codes; the window is 1-2400 hours', () => {
  const twilio = { SIM_CHECK_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 't' };
  assert.deepEqual(problemsOf(twilio), []);
  assert.ok(
    problemsOf({ ...twilio, NUMBER_RECYCLING_CHECK: 'true' }).some((p) =>
      p.startsWith('NUMBER_RECYCLING_CHECK'),
    ),
  );
  const http = { SIM_CHECK_PROVIDER: 'http', SIM_CHECK_HTTP_URL: 'https://sim.example/check' };
  const config = loadConfig({
    ...http,
    NUMBER_RECYCLING_CHECK: 'true',
    SIM_CHECK_COUNTRIES: 'in, br',
    SIM_CHECK_FAIL: 'closed',
  });
  assert.deepEqual([...(config.simCheck.countries ?? [])], ['IN', 'BR']);
  assert.equal(config.simCheck.failClosed, true);
  assert.ok(problemsOf({ ...http, SIM_CHECK_COUNTRIES: 'IN,XX' }).some((p) => p.includes('"XX"')));
  assert.ok(problemsOf({ ...http, SIM_SWAP_MAX_AGE: '0' }).some((p) => p.startsWith('SIM_SWAP_MAX_AGE')));
  assert.ok(problemsOf({ ...http, SIM_CHECK_FAIL: 'maybe' }).some((p) => p.startsWith('SIM_CHECK_FAIL')));
});
