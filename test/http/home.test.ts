import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ADMIN_TOKEN } from '../helpers/oauth.ts';

describe('GET / points to where to start', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN } });
  });
  after(() => t.close());

  test('a browser gets a small page linking the API docs, the console and the discovery document', async () => {
    const res = await t.request('GET', '/', {
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    for (const path of ['/docs', '/console', '/.well-known/openid-configuration'])
      assert.ok(String(res.body).includes(`href="http://callsign.test${path}"`), path);
  });

  test('a program asking for JSON gets the same links as JSON', async () => {
    const res = await t.request('GET', '/', { headers: { accept: 'application/json' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.docs, 'http://callsign.test/docs');
    assert.equal(res.body.console, 'http://callsign.test/console');
    assert.equal(res.body.openid_configuration, 'http://callsign.test/.well-known/openid-configuration');
  });
});
