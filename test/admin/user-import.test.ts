import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { userPage } from '../../src/http/pages/console/users-pages.ts';
import {
  createTestApp,
  events,
  signUp,
  type TestApp,
  uniqueIp,
  uniquePhone,
  verifiedTempToken,
} from '../helpers/app.ts';
import {
  ADMIN_TOKEN,
  authorizationParams,
  pkce,
  postSignIn,
  registerClient,
  signInForm,
} from '../helpers/oauth.ts';

// POST /admin/v1/users/import: accounts brought in as Callsign's JSON Lines, without PINs; the same import twice
// changes nothing; bad lines fail alone; the first sign-in sets the PIN through the PIN reset.

const importLines = (t: TestApp, lines: unknown[], query = '') =>
  t.request('POST', `/admin/v1/users/import${query}`, {
    token: ADMIN_TOKEN,
    headers: { 'content-type': 'application/x-ndjson' },
    body: lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n'),
  });

const SOURCE_ID = '6f1c2a4e-8b7d-4c3e-9a21-5d0f7e6b3c11';

describe('importing users', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({
      env: { ADMIN_TOKEN, RATE_LIMITS: 'signin_phone=1000/900,signin_address=1000/900' },
    });
  });
  after(() => t.close());

  test('each kind of line: made, skipped or failed, by its line number', async () => {
    const existing = await signUp(t);
    const [full, named, locked, twice] = [uniquePhone(), uniquePhone(), uniquePhone(), uniquePhone()];
    const answer = await importLines(t, [
      {
        phone: full,
        external_id: SOURCE_ID,
        name: 'Ada Lovelace',
        handle: 'ada_imported',
        language: 'pt-br',
        metadata: { plan: 'pro' },
        created_at: '2024-02-03T04:05:06.000Z',
      },
      { phone: named, external_id: 'fb-123', name: 'Grâce Hopper', handle: 'No Good' },
      { phone: locked, disabled: true },
      '{not json',
      { phone: '12345' },
      { phone: uniquePhone(), metadata: { big: 'x'.repeat(11_000) } },
      { phone: twice },
      { phone: twice, external_id: 'other' },
      { phone: existing.phone },
      '',
      { phone: uniquePhone(), external_id: 'fb-123' },
    ]);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(answer.body, {
      imported: 4,
      skipped: [
        { line: 8, reason: 'phone_exists' },
        { line: 9, reason: 'phone_exists' },
        { line: 11, reason: 'id_exists' },
      ],
      failed: [
        { line: 4, error: 'not valid JSON' },
        { line: 5, error: answer.body.failed[1].error },
        { line: 6, error: 'metadata must be at most 10 KB' },
      ],
    });
    assert.match(answer.body.failed[1].error, /phone/i);

    const [ada] = await t.c.db.query<Record<string, unknown>>('SELECT * FROM users WHERE phone = $1', [full]);
    assert.equal(ada.id, SOURCE_ID, 'a UUID source id is the account’s id too');
    assert.equal(ada.external_id, SOURCE_ID);
    assert.equal(ada.handle, 'ada_imported');
    assert.equal(ada.language, 'pt-BR');
    assert.deepEqual(ada.metadata, { plan: 'pro' });
    // What was imported is read back: the admin API's account and the console's page of it.
    const shown = await t.request('GET', `/admin/v1/users/${SOURCE_ID}`, { token: ADMIN_TOKEN });
    assert.deepEqual(
      [shown.body.metadata, shown.body.external_id, shown.body.pin_set],
      [{ plan: 'pro' }, SOURCE_ID, false],
    );
    const page = userPage({ csrf: 'c', section: '/console/users', now: new Date() }, shown.body, {
      checks: [],
      proven_at: null,
      recycled_at: null,
      cleared_until: null,
    });
    assert.match(page, /Not set \(imported/);
    assert.match(page, new RegExp(`<code>${SOURCE_ID}</code>`));
    assert.match(page, /\{&quot;plan&quot;:&quot;pro&quot;\}|\{"plan":"pro"\}/);
    assert.match(page, /Number last proved never here: it came with the import\./);
    assert.equal((ada.created_at as Date).toISOString(), '2024-02-03T04:05:06.000Z');
    assert.equal(ada.pin_hash, null);
    assert.equal(ada.country, 'US');
    const [grace] = await t.c.db.query<Record<string, unknown>>('SELECT * FROM users WHERE phone = $1', [
      named,
    ]);
    assert.match(String(grace.handle), /^grace_hopper_[a-z0-9]{8}$/, 'made from the name');
    const [off] = await t.c.db.query<Record<string, unknown>>('SELECT * FROM users WHERE phone = $1', [
      locked,
    ]);
    assert.match(String(off.handle), /^user_[a-z0-9]{8}$/);
    assert.ok(off.admin_locked_at, 'a disabled user is imported locked');
    assert.deepEqual(await events(t, 'user.created').then((e) => e.filter((x) => x.data.imported)), []);
  });

  test('a line with text PostgreSQL cannot hold, or a date out of bounds, fails alone; the good lines go in', async () => {
    const good = [uniquePhone(), uniquePhone()];
    const answer = await importLines(t, [
      { phone: good[0] },
      { phone: uniquePhone(), name: 'Nul\u0000Name' },
      { phone: uniquePhone(), metadata: { '\ud800': 'a lone surrogate in a key' } },
      { phone: uniquePhone(), metadata: { note: 'a lone surrogate in a value \udfff' } },
      { phone: uniquePhone(), created_at: '+275760-09-13T00:00:00.000Z' },
      { phone: uniquePhone(), created_at: '1960-01-01T00:00:00.000Z' },
      { phone: uniquePhone(), created_at: new Date(t.clock.now().getTime() + 2 * 86_400_000).toISOString() },
      { phone: good[1], created_at: '1970-01-01T00:00:00.000Z' },
    ]);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.imported, 2);
    assert.deepEqual(
      answer.body.failed.map((f: { line: number }) => f.line),
      [2, 3, 4, 5, 6, 7],
    );
    assert.match(answer.body.failed[0].error, /^name must not contain the NUL character/);
    assert.match(answer.body.failed[1].error, /lone surrogate/);
    assert.match(answer.body.failed[2].error, /^metadata\.note .*lone surrogate/);
    for (const f of answer.body.failed.slice(3))
      assert.match(f.error, /created_at must lie between 1970-01-01/);
    const made = await t.c.db.query('SELECT phone FROM users WHERE phone = ANY($1)', [good]);
    assert.equal(made.length, 2);
  });

  test('the source id is shown to servers and found by them: GET /api/v1/users?external_id=', async () => {
    const phone = uniquePhone();
    await importLines(t, [{ phone, external_id: 'auth0|42' }]);
    const { key } = (
      await t.request('POST', '/admin/v1/api-keys', { token: ADMIN_TOKEN, body: { name: 'b' } })
    ).body;
    const found = await t.request('GET', `/api/v1/users?external_id=${encodeURIComponent('auth0|42')}`, {
      token: key,
    });
    assert.equal(found.status, 200);
    assert.deepEqual(
      found.body.data.map((u: { phone: string; external_id: string }) => [u.phone, u.external_id]),
      [[phone, 'auth0|42']],
    );
    const one = await t.request('GET', `/api/v1/users/${found.body.data[0].id}`, { token: key });
    assert.equal(one.body.external_id, 'auth0|42');
    const neither = await t.request('GET', '/api/v1/users', { token: key });
    assert.equal(neither.status, 400);
    const admin = await t.request('GET', `/admin/v1/users/${found.body.data[0].id}`, { token: ADMIN_TOKEN });
    assert.deepEqual([admin.body.external_id, admin.body.pin_set], ['auth0|42', false]);
  });

  test('the same import twice changes nothing the second time', async () => {
    const lines = [{ phone: uniquePhone(), external_id: 'sb-1' }, { phone: uniquePhone() }];
    assert.equal((await importLines(t, lines)).body.imported, 2);
    const again = await importLines(t, lines);
    assert.deepEqual(again.body, {
      imported: 0,
      skipped: [
        { line: 1, reason: 'phone_exists' },
        { line: 2, reason: 'phone_exists' },
      ],
      failed: [],
    });
  });

  test('a dry run reports the same and keeps nothing; emit_events sends user.created with imported: true', async () => {
    const phone = uniquePhone();
    const dry = await importLines(t, [{ phone }], '?dry_run=true');
    assert.deepEqual(dry.body, { imported: 1, skipped: [], failed: [] });
    assert.equal((await t.c.db.query('SELECT 1 FROM users WHERE phone = $1', [phone])).length, 0);
    const real = await importLines(t, [{ phone, name: 'Eve' }], '?emit_events=true');
    assert.equal(real.body.imported, 1);
    const sent = (await events(t, 'user.created')).filter(
      (e) => (e.data.user as { phone: string }).phone === phone,
    );
    assert.equal(sent.length, 1);
    assert.equal(sent[0].data.imported, true);
  });

  test('more than 10,000 lines, or a body that is no text, is refused whole', async () => {
    const many = Array.from({ length: 10_001 }, () => ({ phone: '+14155550100' }));
    const refused = await importLines(t, many);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, 'invalid_request');
    assert.match(refused.body.error_description, /10000 lines/);
    const json = await t.request('POST', '/admin/v1/users/import', {
      token: ADMIN_TOKEN,
      body: { phone: '+1' },
    });
    assert.equal(json.status, 400);
    const noToken = await t.request('POST', '/admin/v1/users/import', {
      headers: { 'content-type': 'application/x-ndjson' },
      body: '{}',
    });
    assert.equal(noToken.status, 401);
  });
});

describe('an imported account’s first sign-in', () => {
  let t: TestApp;
  let open: TestApp;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN } });
    open = await createTestApp({ env: { ADMIN_TOKEN, ENUMERATION_PROTECTION: 'true' } });
  });
  after(async () => {
    await t.close();
    await open.close();
  });

  test('a PIN answers INVALID_CREDENTIALS saying pin_not_set; the PIN reset sets it; then the PIN signs in', async () => {
    const phone = uniquePhone();
    await importLines(t, [{ phone, external_id: 'x-1' }]);
    const first = await t.request('POST', '/auth/signin', { body: { phone, pin: '482916' }, ip: uniqueIp() });
    assert.equal(first.status, 401);
    assert.equal(first.body.error.code, 'INVALID_CREDENTIALS');
    assert.equal(first.body.error.details.reason, 'pin_not_set');
    const temp_token = await verifiedTempToken(t, phone, 'pin_reset');
    const reset = await t.request('POST', '/auth/pin/reset', {
      body: { temp_token, pin: '739164' },
      ip: uniqueIp(),
    });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    const signedIn = await t.request('POST', '/auth/signin', {
      body: { phone, pin: '739164' },
      ip: uniqueIp(),
    });
    assert.equal(signedIn.status, 200);
  });

  test('where numbers are hidden, the refusal is a wrong PIN’s, word for word', async () => {
    const phone = uniquePhone();
    await importLines(open, [{ phone }]);
    const refused = await open.request('POST', '/auth/signin', {
      body: { phone, pin: '482916' },
      ip: uniqueIp(),
    });
    const wrong = await open.request('POST', '/auth/signin', {
      body: { phone: uniquePhone(), pin: '482916' },
      ip: uniqueIp(),
    });
    assert.deepEqual(refused.body, wrong.body);
  });

  test('the hosted sign-in page says to set the PIN', async () => {
    const phone = uniquePhone();
    await importLines(t, [{ phone }]);
    const client = await registerClient(t, { token_endpoint_auth_method: 'none' });
    const { state, csrf } = await signInForm(t, authorizationParams(client.client_id, pkce().challenge));
    const page = await postSignIn(t, { state, csrf }, { phone, pin: '482916' });
    assert.match(String(page.body), /You have not set a PIN yet/);
  });

  test('a handle the import made: the person’s first own change starts no cooldown, the next one does', async () => {
    const phone = uniquePhone();
    await importLines(t, [{ phone }]);
    const temp_token = await verifiedTempToken(t, phone, 'pin_reset');
    const reset = await t.request('POST', '/auth/pin/reset', {
      body: { temp_token, pin: '739164' },
      ip: uniqueIp(),
    });
    const token = reset.body.data.access_token;
    const rename = (handle: string) => t.request('PATCH', '/users/me', { token, body: { handle } });
    const suffix = phone.slice(-6);
    assert.equal((await rename(`first_${suffix}`)).status, 200);
    assert.equal((await rename(`second_${suffix}`)).status, 200);
    assert.equal((await rename(`third_${suffix}`)).body.error.code, 'HANDLE_COOLDOWN');
  });
});
