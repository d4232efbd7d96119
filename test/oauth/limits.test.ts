import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestApp } from '../helpers/app.ts';
import { ADMIN_TOKEN, authorizeUrl, pkce, REDIRECT, refreshGrant, registerClient } from '../helpers/oauth.ts';

test('the token endpoint counts per client (300/min by default); the 4th here is 429 with Retry-After', async () => {
  const t = await createTestApp({ env: { ADMIN_TOKEN, RATE_LIMITS: 'oauth_token_client=3/60' } });
  try {
    const a = await registerClient(t, { token_endpoint_auth_method: 'none' });
    const b = await registerClient(t, { token_endpoint_auth_method: 'none' });
    for (let i = 0; i < 3; i++) {
      const res = await refreshGrant(t, a.client_id, 'x');
      assert.equal(res.body.error, 'invalid_grant');
      assert.equal(res.headers['x-ratelimit-limit'], '3');
    }
    const over = await refreshGrant(t, a.client_id, 'x');
    assert.equal(over.status, 429);
    assert.ok(Number(over.headers['retry-after']) >= 1);
    const other = await refreshGrant(t, b.client_id, 'x');
    assert.equal(other.body.error, 'invalid_grant', 'another client has its own count');
  } finally {
    await t.close();
  }
});

test('twenty token requests of one client at once against a limit of 12: twelve answered, eight refused', async () => {
  const t = await createTestApp({ env: { ADMIN_TOKEN, RATE_LIMITS: 'oauth_token_client=12/60' } });
  try {
    const a = await registerClient(t, { token_endpoint_auth_method: 'none' });
    const answers = await Promise.all(Array.from({ length: 20 }, () => refreshGrant(t, a.client_id, 'x')));
    const answered = answers.filter((r) => r.status === 400);
    assert.equal(answered.length, 12, 'as many as the limit, however the hits were gathered');
    assert.equal(answers.filter((r) => r.status === 429).length, 8);
    assert.deepEqual(
      answered.map((r) => Number(r.headers['x-ratelimit-remaining'])).sort((x, y) => y - x),
      [11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
      'each answered request got a count of its own',
    );
  } finally {
    await t.close();
  }
});

test('the authorization page counts per client address (60/min by default)', async () => {
  const t = await createTestApp({ env: { ADMIN_TOKEN, RATE_LIMITS: 'oauth_authorize_address=2/60' } });
  try {
    const c = await registerClient(t, { token_endpoint_auth_method: 'none' });
    const url = authorizeUrl({
      response_type: 'code',
      client_id: c.client_id,
      redirect_uri: REDIRECT,
      scope: 'openid',
      state: 's',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    });
    assert.equal((await t.request('GET', url, { ip: '192.0.2.8' })).status, 200);
    assert.equal((await t.request('GET', url, { ip: '192.0.2.8' })).status, 200);
    const over = await t.request('GET', url, { ip: '192.0.2.8' });
    assert.equal(over.status, 429);
    assert.match(String(over.headers['content-type']), /text\/html/);
    // The page says how long to wait, in whole minutes, and the headers describe the limit that refused.
    const wait = Number(over.headers['retry-after']);
    assert.ok(wait >= 1 && wait <= 60);
    assert.equal(over.headers['x-ratelimit-limit'], '2');
    assert.match(String(over.body), /Too many attempts\. Try again in 1 minute\./);
    const hindi = await t.request('GET', url, { ip: '192.0.2.8', headers: { 'accept-language': 'hi' } });
    assert.match(String(hindi.body), /1 मिनट बाद फिर कोशिश करें/);
    assert.equal((await t.request('GET', url, { ip: '192.0.2.9' })).status, 200);
  } finally {
    await t.close();
  }
});
