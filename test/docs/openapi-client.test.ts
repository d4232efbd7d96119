import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import openapiTS from 'openapi-typescript';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ADMIN_TOKEN } from '../helpers/oauth.ts';

// "An OpenAPI document that generates a working client": types generated from /openapi.json with
// openapi-typescript, a small client written with openapi-fetch against them, type-checked by the project's
// TypeScript and then run against a live server (sign-up, sign-in, refresh, GET /users/me); the same client
// with a field misspelt does not type-check. And Redocly's linter finds no error in the document.

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PHONE = '+14155550142';
const CODE = '246810';

const CLIENT = `import createClient from 'openapi-fetch';
import type { paths } from './api';

const api = createClient<paths>({ baseUrl: 'BASE_URL' });
const phone = '${PHONE}';

async function main() {
  const sent = await api.POST('/auth/otp/send', { body: { phone, purpose: 'signup' } });
  if (!sent.data) throw new Error('send: ' + JSON.stringify(sent.error));
  const verified = await api.POST('/auth/otp/verify', { body: { phone, code: '${CODE}', purpose: 'signup' } });
  if (!verified.data) throw new Error('verify: ' + JSON.stringify(verified.error));
  const tempToken: string = verified.data.data.temp_token;
  const signedUp = await api.POST('/auth/signup', { body: { temp_token: tempToken, pin: '480715', handle: 'openapi_client' } });
  if (!signedUp.data) throw new Error('signup: ' + JSON.stringify(signedUp.error));
  const signedIn = await api.POST('/auth/signin', { body: { phone, pin: '480715', device: { name: 'CI', platform: 'other' } } });
  if (!signedIn.data) throw new Error('signin: ' + JSON.stringify(signedIn.error));
  const refreshed = await api.POST('/auth/refresh', { body: { refresh_token: signedIn.data.data.refresh_token } });
  if (!refreshed.data) throw new Error('refresh: ' + JSON.stringify(refreshed.error));
  const me = await api.GET('/users/me', { headers: { authorization: 'Bearer ' + refreshed.data.data.access_token } });
  if (!me.data) throw new Error('me: ' + JSON.stringify(me.error));
  const handle: string = me.data.data.handle;
  const wrong = await api.POST('/auth/signin', { body: { phone, pin: '000001' } });
  const code: string | undefined = wrong.error?.error.code;
  console.log(JSON.stringify({ handle, expiresIn: refreshed.data.data.expires_in, wrongPin: code }));
}
main();
`;

let t: TestApp;
let dir: string;
let baseUrl: string;
before(async () => {
  t = await createTestApp({ env: { ADMIN_TOKEN, TEST_PHONE_NUMBERS: `${PHONE}=${CODE}` } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  // A project of its own, as an integrator would make one: the two libraries from the npm registry beside it.
  dir = mkdtempSync(join(tmpdir(), 'callsign-client-'));
  mkdirSync(join(dir, 'node_modules'));
  for (const name of ['openapi-fetch', 'openapi-typescript-helpers'])
    symlinkSync(join(ROOT, 'node_modules', name), join(dir, 'node_modules', name));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'nodenext',
        target: 'es2022',
        skipLibCheck: true,
      },
      include: ['*.ts'],
    }),
  );
});
after(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const typeCheck = () =>
  run(join(ROOT, 'node_modules/.bin/tsc'), ['-p', dir]).then(
    () => '',
    (err: { stdout?: string }) => err.stdout || String(err),
  );

describe('the OpenAPI document', () => {
  test('generates types a client written with openapi-fetch type-checks against, and that client works', async () => {
    const spec = (await t.request('GET', '/openapi.json')).body;
    writeFileSync(join(dir, 'api.d.ts'), await openapiTS(spec));
    const client = CLIENT.replace('BASE_URL', baseUrl);
    writeFileSync(join(dir, 'client.ts'), client);
    assert.equal(await typeCheck(), '', 'the client type-checks');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', join(dir, 'client.ts')], {
      cwd: ROOT,
    });
    assert.deepEqual(JSON.parse(stdout), {
      handle: 'openapi_client',
      expiresIn: 900,
      wrongPin: 'INVALID_CREDENTIALS',
    });

    writeFileSync(
      join(dir, 'client.ts'),
      CLIENT.replace('{ refresh_token: signedIn', '{ refresh_tokn: signedIn'),
    );
    assert.match(await typeCheck(), /refresh_tokn/, 'a misspelt field does not type-check');
  });

  test('Redocly lint finds no error in it', async () => {
    const spec = (await t.request('GET', '/openapi.json')).body;
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(spec));
    const lint = await run(join(ROOT, 'node_modules/.bin/redocly'), ['lint', file, '--format=summary'], {
      cwd: dir,
    }).then(
      ({ stdout, stderr }) => ({ ok: true, out: stdout + stderr }),
      (err: { stdout?: string; stderr?: string }) => ({ ok: false, out: `${err.stdout}${err.stderr}` }),
    );
    assert.ok(lint.ok, lint.out);
    assert.doesNotMatch(lint.out, /^error/m, lint.out);
  });
});
