import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { createTestApp, type SignedUp, signUp, type TestApp } from '../helpers/app.ts';
import { ADMIN_TOKEN, accessTokenFor, registerClient } from '../helpers/oauth.ts';

// This file imports nothing that loads sharp, so that what this process maps is the service's doing.
const libvipsLoaded = () => /libvips/.test(readFileSync('/proc/self/maps', 'utf8'));
// A 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let t: TestApp;
let user: SignedUp;
before(async () => {
  t = await createTestApp({ env: { ADMIN_TOKEN } });
  user = await signUp(t);
});
after(() => t.close());

test('the service loads libvips with its first image, not when it starts', async () => {
  assert.equal(libvipsLoaded(), false, 'a started service with no image handled has not loaded libvips');
  const client = await registerClient(t, {
    token_endpoint_auth_method: 'none',
    scope: 'openid profile profile:write account:delete',
  });
  const token = await accessTokenFor(
    t,
    client.client_id,
    user,
    'openid profile profile:write account:delete',
  );
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'me.png');
  const r = new Response(form);
  const res = await t.request('POST', '/api/v1/users/me/avatar', {
    token,
    body: Buffer.from(await r.arrayBuffer()),
    headers: { 'content-type': r.headers.get('content-type') as string },
  });
  assert.equal(res.status, 200);
  assert.equal(libvipsLoaded(), true);
});
