import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startCliServer } from '../helpers/cli-server.ts';
import { BIN, CHILD_CWD } from '../helpers/spawn-server.ts';

test('`callsign clients|api-keys|keys` drive the running server through its admin API', async () => {
  const { base, env, cli, server, stop } = await startCliServer('admin-cli');
  try {
    assert.match(
      server.output(),
      /console: {3}http:\/\/localhost:\d+\/console/,
      'the banner says where the console is',
    );
    const created = cli(
      'clients',
      'create',
      '--name',
      'Shop',
      '--redirect-uri',
      'https://shop.example/cb',
      '--scope',
      'openid phone',
      '--backchannel-logout-uri',
      'https://shop.example/logout',
      '--json',
    );
    assert.equal(created.code, 0, created.err);
    const client = JSON.parse(created.out);
    assert.equal(client.client_name, 'Shop');
    assert.equal(client.backchannel_logout_uri, 'https://shop.example/logout', 'P109');
    assert.ok(client.client_secret);
    const pub = JSON.parse(
      cli(
        'clients',
        'create',
        '--name',
        'SPA',
        '--redirect-uri',
        'http://localhost:5173/cb',
        '--public',
        '--json',
      ).out,
    );
    assert.equal(pub.token_endpoint_auth_method, 'none');
    assert.equal(pub.client_secret, undefined);
    const text = cli('clients', 'create', '--name', 'Web', '--redirect-uri', 'https://web.example/cb');
    assert.match(text.out, /client_secret: .+shown once/);

    const list = JSON.parse(cli('clients', 'list', '--json').out);
    assert.equal(list.data.length, 3);
    assert.match(cli('clients', 'list').out, /Shop/);
    // P54 from the command line: show and update (a PATCH of the fields given)
    const updated = cli(
      'clients',
      'update',
      client.client_id,
      '--name',
      'Shop 2',
      '--first-party',
      '--no-backchannel-logout',
      '--json',
    );
    assert.equal(updated.code, 0, updated.err);
    const patched = JSON.parse(updated.out);
    assert.equal(patched.client_name, 'Shop 2');
    assert.equal(patched.first_party, true);
    assert.equal(patched.backchannel_logout_uri, null);
    assert.deepEqual(patched.redirect_uris, ['https://shop.example/cb'], 'what is not given is kept');
    const shown = cli('clients', 'show', client.client_id);
    for (const line of [
      /^client_name: +Shop 2$/m,
      /^token_endpoint_auth_method: +client_secret_basic$/m,
      /^scope: +openid phone$/m,
      /^redirect_uris: +https:\/\/shop\.example\/cb$/m,
      /^logo_uri: +-$/m,
    ])
      assert.match(shown.out, line, 'each field labelled');
    const relisted = cli(
      'clients',
      'update',
      client.client_id,
      '--backchannel-logout-uri',
      'https://shop.example/bye',
    );
    assert.match(relisted.out, /https:\/\/shop\.example\/bye/);
    const logoutBack = cli(
      'clients',
      'update',
      client.client_id,
      '--post-logout-redirect-uri',
      'https://shop.example/signed-out',
      '--post-logout-redirect-uri',
      'http://localhost:5173/signed-out',
      '--json',
    );
    assert.deepEqual(JSON.parse(logoutBack.out).post_logout_redirect_uris, [
      'https://shop.example/signed-out',
      'http://localhost:5173/signed-out',
    ]);
    const noLogoutBack = cli('clients', 'update', client.client_id, '--no-post-logout-redirect', '--json');
    assert.deepEqual(JSON.parse(noLogoutBack.out).post_logout_redirect_uris, []);
    // How the client shows itself on the sign-in pages; an empty value removes a field.
    const branded = cli(
      'clients',
      'update',
      client.client_id,
      '--policy-uri',
      'https://shop.example/privacy',
      '--tos-uri',
      'https://shop.example/terms',
      '--client-uri',
      'https://shop.example/',
      '--brand-color',
      '#1D4ED8',
      '--json',
    );
    assert.equal(branded.code, 0, branded.err);
    const brand = JSON.parse(branded.out);
    assert.deepEqual(
      [brand.policy_uri, brand.tos_uri, brand.client_uri, brand.brand_color],
      ['https://shop.example/privacy', 'https://shop.example/terms', 'https://shop.example/', '#1d4ed8'],
    );
    const unbranded = cli('clients', 'update', client.client_id, '--brand-color', '', '--json');
    assert.equal(JSON.parse(unbranded.out).brand_color, null);
    assert.equal(JSON.parse(unbranded.out).policy_uri, 'https://shop.example/privacy');
    const both = cli('clients', 'update', client.client_id, '--first-party', '--third-party');
    assert.equal(both.code, 1);
    assert.match(both.err, /exclude each other/);
    const refusedUri = cli(
      'clients',
      'update',
      client.client_id,
      '--backchannel-logout-uri',
      'http://shop.example/l',
    );
    assert.equal(refusedUri.code, 1);
    assert.match(refusedUri.err, /invalid_request: .*https/);

    // P109: the client's back-channel logouts (none yet; test/oauth/backchannel-logout.test.ts sends some)
    const logouts = cli(
      'clients',
      'logouts',
      client.client_id,
      '--status',
      'failed',
      '--limit',
      '5',
      '--json',
    );
    assert.equal(logouts.code, 0, logouts.err);
    assert.deepEqual(JSON.parse(logouts.out), { data: [] });
    for (const [flag, value] of [
      ['--status', 'lost'],
      ['--limit', '0'],
      ['--before', 'yesterday'],
    ]) {
      const refused = cli('clients', 'logouts', client.client_id, flag, value);
      assert.equal(refused.code, 1, flag);
      assert.match(refused.err, new RegExp(`invalid_request: .*\\(${flag.slice(2)}\\)`), flag);
    }
    const missing = cli('clients', 'replay-logout', '00000000-0000-4000-8000-000000000000');
    assert.equal(missing.code, 1);
    assert.match(missing.err, /not_found: no such back-channel logout/);
    const deleted = cli('clients', 'delete', client.client_id);
    assert.equal(deleted.code, 0, `${deleted.err}\n${server.output()}`);
    assert.equal(JSON.parse(cli('clients', 'list', '--json').out).data.length, 2);

    const bad = cli('clients', 'create', '--name', 'Bad', '--redirect-uri', 'http://evil.example/cb');
    assert.equal(bad.code, 1);
    assert.match(bad.err, /invalid_request/);

    const key = JSON.parse(cli('api-keys', 'create', '--name', 'backend', '--json').out);
    assert.ok(key.key.startsWith('csk_'));
    assert.match(cli('api-keys', 'list').out, new RegExp(key.prefix));
    assert.equal(cli('api-keys', 'revoke', key.id).code, 0);

    // An initial access token, by which a client registers itself (RFC 7591), good for the uses asked.
    const initial = cli('clients', 'initial-token', '--uses', '1', '--json');
    assert.equal(initial.code, 0, initial.err);
    const iat = JSON.parse(initial.out);
    assert.equal(iat.uses, 1);
    assert.match(cli('clients', 'initial-token').out, /shown once/);
    const register = () =>
      fetch(`${base}/oauth/register`, {
        method: 'POST',
        headers: { authorization: `Bearer ${iat.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'Agent', redirect_uris: ['http://127.0.0.1:8080/cb'] }),
      });
    assert.equal((await register()).status, 201);
    assert.equal((await register()).status, 401, 'its one use is spent');

    // P97: published at once, signing 420 s on; with --now, at once.
    const rotated = JSON.parse(cli('keys', 'rotate', '--json').out);
    const ahead = Date.parse(rotated.signs_from) - Date.now();
    assert.ok(ahead > 400_000 && ahead <= 420_000, rotated.signs_from);
    const now = cli('keys', 'rotate', '--now').out;
    const [, kid, from] = /new key (\S+) is published and signs from (\S+);/.exec(now) ?? [];
    assert.ok(Math.abs(Date.parse(from) - Date.now()) < 20_000, now);
    const jwks = await (await fetch(`${base}/.well-known/jwks.json`)).json();
    for (const k of [rotated.kid, kid])
      assert.ok(
        jwks.keys.some((j: { kid: string }) => j.kid === k),
        k,
      );

    // P99: here nothing is sealed with a fallback key, so each kind is counted and none sealed again.
    assert.equal(
      cli('keys', 'reencrypt').out.trim(),
      [
        'signing keys: 0 sealed again with KEY_ENCRYPTION_KEY',
        'webhook secrets: 0 sealed again with KEY_ENCRYPTION_KEY',
        'KYC photos: 0 sealed again with KEY_ENCRYPTION_KEY',
        'recovery-code keys: 0 sealed again with KEY_ENCRYPTION_KEY',
        'the mobile operators’ client key: 0 sealed again with KEY_ENCRYPTION_KEY',
        'security-event push headers: 0 sealed again with KEY_ENCRYPTION_KEY',
      ].join('\n'),
    );
    assert.deepEqual(JSON.parse(cli('keys', 'reencrypt', '--json').out).signing_keys, {
      resealed: 0,
      unreadable: 0,
    });

    // P114: no account yet, so no PIN of any pepper.
    assert.deepEqual(JSON.parse(cli('keys', 'pin-pepper', '--json').out), {
      current: 0,
      fallback: 0,
      unnamed: 0,
      other: 0,
    });
    assert.match(cli('keys', 'pin-pepper').out, /^PINs of live accounts hashed with PIN_PEPPER: 0\n/);

    // P100: what the commands above did is in the trail, newest first.
    const listed = cli('actions', 'list', '--limit', '2', '--json');
    assert.equal(listed.code, 0, listed.err);
    const trail = JSON.parse(listed.out).data;
    assert.deepEqual(
      trail.map((a: { method: string; route: string; source: string }) => [a.source, a.method, a.route]),
      [
        ['api', 'POST', '/admin/v1/keys/reencrypt'],
        ['api', 'POST', '/admin/v1/keys/reencrypt'],
      ],
    );
    const lines = cli('actions', 'list', '--before', String(trail[1].id)).out.trim().split('\n');
    assert.equal(
      lines.shift(),
      'id  at  source  address  method  route  params  status  request_id',
      'its header',
    );
    assert.match(
      lines[0],
      /^\d+ {2}\S+ {2}api {2}127\.0\.0\.1 {2}POST {2}\/admin\/v1\/keys\/rotate {2}- {2}200 /,
    );
    assert.match(lines.at(-1) ?? '', /POST {2}\/admin\/v1\/clients {2}- {2}201 /);

    const noToken = spawnSync(process.execPath, [BIN, 'clients', 'list'], {
      env: { ...env, ADMIN_TOKEN: '' },
      cwd: CHILD_CWD,
      encoding: 'utf8',
    });
    assert.equal(noToken.status, 1);
    assert.match(noToken.stderr, /ADMIN_TOKEN is not set/);
  } finally {
    await stop();
  }
});

test('the admin commands reach the server at --admin-url, and say where they looked when it does not answer', async () => {
  const { base, env, cli, stop } = await startCliServer('url-cli');
  try {
    const elsewhere = { ...env, PORT: '9', CALLSIGN_ADMIN_URL: '' };
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [BIN, ...args], { env: elsewhere, cwd: CHILD_CWD, encoding: 'utf8' });
    const lost = run('clients', 'list');
    assert.equal(lost.status, 1);
    assert.match(
      lost.stderr,
      /cannot reach the admin API at http:\/\/127\.0\.0\.1:9: .*--admin-url or CALLSIGN_ADMIN_URL, or the PORT/,
    );
    const found = run('clients', 'list', '--admin-url', base);
    assert.equal(found.status, 0, found.stderr);
    assert.equal(found.stdout.trim(), 'no clients');
    assert.equal(cli('clients', 'list').out.trim(), 'no clients', 'beside the server: its PORT and HOST');
  } finally {
    await stop();
  }
});

test('`callsign users` finds, shows, locks and unlocks accounts; an empty list says so', async () => {
  const { cli, stop } = await startCliServer('users-cli');
  try {
    assert.equal(cli('users', 'list').out.trim(), 'no users');
    assert.equal(cli('api-keys', 'list').out.trim(), 'no API keys');
    const file = join(mkdtempSync(join(tmpdir(), 'callsign-users-')), 'users.jsonl');
    writeFileSync(
      file,
      `${JSON.stringify({ phone: '+14155550142', name: 'Ada Lovelace', external_id: 'ada-1' })}\n`,
    );
    assert.equal(cli('users', 'import', file, '--format', 'jsonl').code, 0);
    const listed = cli('users', 'list', '--q', 'Lovelace');
    assert.equal(listed.code, 0, listed.err);
    const [header, row] = listed.out.trim().split('\n');
    assert.equal(header, 'id  phone  handle  name  kyc_status  admin_locked_at  created_at');
    const id = row.split('  ')[0];
    assert.match(row, /\+14155550142 {2}\S+ {2}Ada Lovelace {2}none {2}- {2}/);
    const shown = cli('users', 'show', id);
    assert.match(shown.out, /external_id: +ada-1\n/);
    assert.match(shown.out, /pin_set: +false\n/);
    assert.equal(cli('users', 'lock', id).out.trim(), `locked ${id}; its sessions ended`);
    assert.notEqual(JSON.parse(cli('users', 'show', id, '--json').out).admin_locked_at, null);
    assert.equal(cli('users', 'unlock', id).out.trim(), `unlocked ${id}`);
    assert.equal(JSON.parse(cli('users', 'show', id, '--json').out).admin_locked_at, null);
  } finally {
    await stop();
  }
});
