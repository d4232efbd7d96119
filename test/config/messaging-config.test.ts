import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/config/config.ts';
import { problemsOf } from '../helpers/config-problems.ts';
import { envRef, writeConfig } from '../helpers/messaging.ts';

// MESSAGING_CONFIG is checked at start: every bad field is named, secrets come from the environment, and it
// does not go together with SMS_PROVIDER.

const good = {
  providers: {
    tw: { type: 'twilio', account_sid: 'AC1', auth_token: envRef('TW_TOKEN'), from: '+15005550006' },
    msg91: { type: 'msg91', auth_key: 'k', template_id: '1207' },
  },
  routes: [
    { countries: ['IN'], sms: ['msg91', 'tw'] },
    { countries: ['*'], sms: ['tw'], voice: ['tw'] },
  ],
  fallback: { voice: 'sms' },
};

test('a good file: providers with their secrets from the environment, routes and fallback', () => {
  const c = loadConfig({ MESSAGING_CONFIG: writeConfig(good), TW_TOKEN: 'secret-from-env' });
  assert.equal(c.messagingConfigured, true);
  assert.deepEqual(
    c.messaging.providers.map((p) => [p.name, p.type]),
    [
      ['tw', 'twilio'],
      ['msg91', 'msg91'],
    ],
  );
  assert.equal(c.messaging.providers[0].auth_token, 'secret-from-env');
  assert.deepEqual(c.messaging.routes[0], { countries: ['IN'], channels: { sms: ['msg91', 'tw'] } });
  assert.deepEqual(c.messaging.fallback, { voice: 'sms' });
});

test('MESSAGING_CONFIG with SMS_PROVIDER is refused, naming both', () => {
  const problems = problemsOf({ MESSAGING_CONFIG: writeConfig(good), TW_TOKEN: 'x', SMS_PROVIDER: 'twilio' });
  assert.ok(
    problems.some((p) => p.includes('MESSAGING_CONFIG') && p.includes('SMS_PROVIDER')),
    problems.join('\n'),
  );
});

test('every bad field is named with its path', () => {
  const bad = {
    providers: {
      tw: { type: 'twilio', account_sid: 'AC1', from: '+15005550006', colour: 'red' },
      meta: {
        type: 'whatsapp_cloud',
        phone_number_id: '1',
        access_token: envRef('UNSET_TOKEN'),
        template: 't',
      },
      fax: { type: 'fax' },
      msg91: { type: 'msg91', auth_key: 'k', template_id: '1207', api_url: 'ftp://x' },
      vg: { type: 'vonage', api_key: 'k', api_secret: 's', from: 'Callsign' },
    },
    routes: [
      { countries: ['XX'], sms: ['nobody'], whatsapp: ['vg'] },
      { countries: ['*'], voice: ['meta'] },
    ],
    fallback: { sms: 'sms' },
  };
  const problems = problemsOf({ MESSAGING_CONFIG: writeConfig(bad) });
  const expected = [
    `MESSAGING_CONFIG: providers.meta.access_token: ${envRef('UNSET_TOKEN')} is not set in the environment`,
  ];
  assert.deepEqual(problems, expected, 'an unset variable is named first, before the file is read further');
  const problems2 = problemsOf({ MESSAGING_CONFIG: writeConfig(bad), UNSET_TOKEN: 'now-set' });
  for (const part of [
    'providers.tw: must have required properties auth_token',
    'providers.tw: must not have additional properties (colour)',
    'providers.fax.type: "fax" is not one of',
    'providers.msg91.api_url: must match pattern',
    'routes.0.countries: "XX" is not an ISO 3166-1 alpha-2 code',
    'routes.0.sms: no provider is named "nobody"',
    'routes.0.whatsapp: provider "vg" (vonage) cannot carry whatsapp',
    'routes.1.voice: provider "meta" (whatsapp_cloud) cannot carry voice',
    'fallback.sms: a channel cannot fall back to itself',
  ])
    assert.ok(
      problems2.some((p) => p.startsWith('MESSAGING_CONFIG: ') && p.includes(part)),
      `${part}\n in:\n${problems2.join('\n')}`,
    );
});

test('a file that is not there, or not JSON, is named', () => {
  assert.match(
    problemsOf({ MESSAGING_CONFIG: '/nonexistent/messaging.json' })[0],
    /could not be read as JSON/,
  );
});
