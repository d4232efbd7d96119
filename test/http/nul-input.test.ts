import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type SignedUp, signUp, type TestApp } from '../helpers/app.ts';
import {
  ADMIN_TOKEN,
  accessTokenFor,
  adminRequest,
  authorizationParams,
  authorizeUrl,
  pkce,
  REDIRECT,
  refreshGrant,
  registerClient,
} from '../helpers/oauth.ts';

// P63: PostgreSQL's text and jsonb cannot hold U+0000; input carrying it is refused as malformed, in each
// surface's own format, before anything is read or written: never a 500, never half a change.

describe('input with the NUL character', () => {
  let t: TestApp;
  let user: SignedUp;
  let clientId: string;
  let apiToken: string;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN } });
    user = await signUp(t, { name: 'Before' });
    clientId = (
      await registerClient(t, {
        token_endpoint_auth_method: 'none',
        scope: 'openid profile profile:write account:delete',
      })
    ).client_id;
    apiToken = await accessTokenFor(t, clientId, user, 'openid profile profile:write account:delete');
  });
  after(() => t.close());

  test('REST: a JSON field is INVALID_REQUEST naming it, and nothing changes', async () => {
    for (const body of [{ name: 'a\u0000b' }, { bio: '\u0000' }]) {
      const res = await t.request('PATCH', '/users/me', { token: user.access_token, body });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'INVALID_REQUEST');
      assert.equal(res.body.error.details.field, Object.keys(body)[0]);
      assert.match(res.body.error.message, /NUL/);
    }
    const me = await t.request('GET', '/users/me', { token: user.access_token });
    assert.equal(me.body.data.name, 'Before');
  });

  test('a lone surrogate (JSON "\\ud800") is INVALID_REQUEST on every surface; a pair (an emoji) is text', async () => {
    const rest = await t.request('PATCH', '/users/me', {
      token: user.access_token,
      body: { name: 'a\ud800b' },
    });
    assert.equal(rest.status, 400, JSON.stringify(rest.body));
    assert.equal(rest.body.error.code, 'INVALID_REQUEST');
    assert.equal(rest.body.error.details.field, 'name');
    assert.match(rest.body.error.message, /lone surrogate/);
    assert.equal(
      (await t.request('GET', '/users/me', { token: user.access_token })).body.data.name,
      'Before',
    );
    for (const body of [{ a: ['\udfff'] }, { 'k\ud800': 1 }]) {
      const res = await t.request('PATCH', '/api/v1/users/me/metadata', { token: apiToken, body });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error, 'invalid_request');
      assert.match(res.body.error_description, /lone surrogate/);
    }
    const admin = await adminRequest(t, 'POST', '/api-keys', { name: '\ud83d' });
    assert.equal(admin.body.error, 'invalid_request');
    const emoji = await t.request('PATCH', '/api/v1/users/me/metadata', {
      token: apiToken,
      body: { mood: '\u{1f600}' },
    });
    assert.equal(emoji.status, 200, JSON.stringify(emoji.body));
    assert.deepEqual(emoji.body.metadata.mood, '\u{1f600}');
  });

  test('REST: in a query string or a path', async () => {
    const check = await t.request('GET', '/users/handle/check?handle=a%00b');
    assert.equal(check.status, 400);
    assert.equal(check.body.error.code, 'INVALID_REQUEST');
    const profile = await t.request('GET', '/users/@a%00b');
    assert.equal(profile.status, 400);
    assert.equal(profile.body.error.code, 'INVALID_REQUEST');
  });

  test('/api/v1: nested metadata values and keys are invalid_request; the metadata stays', async () => {
    for (const body of [{ a: { b: 'x\u0000' } }, { 'k\u0000': 1 }, { list: [1, ['\u0000']] }]) {
      const res = await t.request('PATCH', '/api/v1/users/me/metadata', { token: apiToken, body });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error, 'invalid_request');
    }
    const me = await t.request('GET', '/api/v1/users/me', { token: apiToken });
    assert.equal(me.status, 200);
  });

  test('however deep it is nested (the search is a loop, not recursion)', async () => {
    const depth = 100_000;
    const body = `{"deep":${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}}`;
    const res = await t.request('PATCH', '/api/v1/users/me/metadata', { token: apiToken, body });
    assert.equal(res.status, 400, JSON.stringify(res.body).slice(0, 200));
    assert.equal(res.body.error, 'invalid_request');
    assert.match(res.body.error_description, /^deep\.0\.0\.[0.]*\.\.\. must not contain the NUL character/);
    assert.ok(res.body.error_description.length < 200, 'the path is shown in short');
  });

  test('/api/v1: a malformed multipart upload is invalid_request', async () => {
    const res = await t.request('POST', '/api/v1/users/me/avatar', {
      token: apiToken,
      body: '--x\r\n\r\n',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.error, 'invalid_request');
  });

  test('admin API: a path or a query with NUL is invalid_request', async () => {
    for (const [method, url] of [
      ['GET', '/clients/%00'],
      ['DELETE', '/clients/a%00'],
      ['GET', '/users?q=%00'],
    ]) {
      const res = await adminRequest(t, method, url);
      assert.equal(res.status, 400, `${method} ${url}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error, 'invalid_request');
    }
  });

  test('token endpoint: a form field with NUL is invalid_request (RFC 6749 §5.2)', async () => {
    const res = await refreshGrant(t, 'a\u0000', 'x');
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.error, 'invalid_request');
  });

  test('authorize: NUL in client_id is the error page; after the client is known, a redirect', async () => {
    const { challenge } = pkce();
    const page = await t.request(
      'GET',
      authorizeUrl(authorizationParams(clientId, challenge, { client_id: `${clientId}\u0000` })),
    );
    assert.equal(page.status, 400);
    assert.match(String(page.headers['content-type']), /text\/html/);
    assert.equal(page.headers.location, undefined, 'never a redirect before the client is known');

    const back = await t.request(
      'GET',
      authorizeUrl(authorizationParams(clientId, challenge, { nonce: 'n\u0000', scope: 'openid' })),
    );
    assert.equal(back.status, 302);
    const to = new URL(String(back.headers.location));
    assert.equal(`${to.origin}${to.pathname}`, REDIRECT);
    assert.equal(to.searchParams.get('error'), 'invalid_request');
    assert.equal(to.searchParams.get('state'), 'st-1');
    assert.ok(to.searchParams.get('iss'));
  });
});
