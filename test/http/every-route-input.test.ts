import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DEFAULT_RATE_LIMITS } from '../../src/config/rate-limits.ts';
import { createTestApp, signUp, type TestApp } from '../helpers/app.ts';
import { ADMIN_TOKEN, accessTokenFor, adminRequest, registerClient } from '../helpers/oauth.ts';
import { answerChecker } from '../helpers/openapi.ts';

// "Bad input gets a clear error in the surface's own format, never a 500": every route the OpenAPI document
// lists gets U+0000 in each of its path parameters, query parameters and body fields (P63), a lone surrogate
// in each body field (P104), wrong types and
// sizes in each body field, ids that are no uuid in each path parameter, and broken bodies. New routes are covered as soon as they are documented.

let t: TestApp;
let userToken: string;
let apiKey: string;
let oauthToken: string;
before(async () => {
  // Limits out of the way: every probe must reach the route's own handling, not a 429.
  const RATE_LIMITS = Object.keys(DEFAULT_RATE_LIMITS)
    .map((name) => `${name}=1000000/60`)
    .join(',');
  t = await createTestApp({ env: { ADMIN_TOKEN, RATE_LIMITS } });
  const user = await signUp(t);
  userToken = user.access_token;
  const client = await registerClient(t, {
    token_endpoint_auth_method: 'none',
    scope: 'openid profile profile:write account:delete',
  });
  oauthToken = await accessTokenFor(t, client.client_id, user, 'openid profile profile:write account:delete');
  apiKey = (await adminRequest(t, 'POST', '/api-keys', { name: 'probe' })).body.key;
});
after(() => t.close());

interface Operation {
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
}

/** The credential a route's surface takes, so the probe reaches past authentication. */
const credential = (path: string) =>
  path.startsWith('/admin/')
    ? ADMIN_TOKEN
    : path.startsWith('/api/v1/users/me')
      ? oauthToken
      : path.startsWith('/api/v1')
        ? apiKey
        : userToken;

const WRONG = [null, 7, true, [], { a: 1 }, 'x'.repeat(20_000), '\u00e9\u{1f600}'];
/** JSON nested this deep, around a value: past any depth a field of ours allows, deep enough to overflow a recursion. */
const DEEP_LEVELS = 150_000;
const deep = (inner: string) => `${'{"a":'.repeat(DEEP_LEVELS)}${inner}${'}'.repeat(DEEP_LEVELS)}`;
const deepArray = `${'['.repeat(DEEP_LEVELS)}${']'.repeat(DEEP_LEVELS)}`;
/** Ids of every type a path parameter takes, each put in one parameter while the others hold a real-looking uuid. */
const ODD_IDS = ['x', '-'.repeat(36), 'gggggggg-0000-4000-8000-000000000000', '1', 'a%00b'];
const SOME_UUID = '0b0e7c2a-5d7e-4a53-9d8e-3c1f2a4b5c6d';
const BROKEN = ['{"a":', '[]', 'null', '"text"', `{"a":${'['.repeat(5000)}`];

test('no documented route answers 5xx to malformed input; U+0000 or a lone surrogate anywhere is a 400', async () => {
  const spec = (await t.request('GET', '/openapi.json')).body as {
    paths: Record<string, Record<string, Operation>>;
  };
  const failures: string[] = [];
  const documented = answerChecker(spec);
  let template = '';
  let requests = 0;
  const probe = async (method: string, url: string, body: string | undefined, nul: boolean) => {
    requests++;
    const token = credential(url);
    const res = await t.app.inject({
      method: method as 'GET',
      url,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      payload: method === 'GET' || method === 'DELETE' ? undefined : body,
    });
    if (res.statusCode >= 500 || res.statusCode === 429 || (nul && res.statusCode !== 400))
      failures.push(
        `${res.statusCode} ${method} ${url} ${String(body).slice(0, 80)}: ${res.body.slice(0, 120)}`,
      );
    // The answer, refusal or not, is the one the document gives for its status.
    const contentType = String(res.headers['content-type'] ?? '');
    const wrong = documented(
      method,
      template,
      res.statusCode,
      contentType,
      contentType.includes('json') ? res.json() : undefined,
    );
    if (wrong) failures.push(wrong);
  };
  for (const [path, operations] of Object.entries(spec.paths)) {
    template = path;
    const fill = (value: string) => template.replace(/\{[^}]+\}/g, value);
    for (const [m, op] of Object.entries(operations)) {
      const method = m.toUpperCase();
      if (!['GET', 'POST', 'PATCH', 'PUT', 'DELETE'].includes(method)) continue;
      const url = fill('x');
      const fields = Object.keys(op.requestBody?.content?.['application/json']?.schema?.properties ?? {});
      const queries = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      if (template.includes('{')) {
        await probe(method, fill('a%00b'), '{}', true);
        // Ids that are no uuid, one of them in the uuid alphabet and length, never reach a uuid column: in
        // each path parameter on its own, the others holding a uuid.
        const names = template.match(/\{[^}]+\}/g) ?? [];
        for (const name of names)
          for (const id of ODD_IDS) {
            const one = names.reduce((path, n) => path.replace(n, n === name ? id : SOME_UUID), template);
            await probe(method, one, '{}', id.includes('%00'));
          }
      }
      for (const q of queries) await probe(method, `${url}?${q}=a%00b`, undefined, true);
      if (method === 'GET' || method === 'DELETE') continue;
      await probe(method, url, JSON.stringify({ nested: { 'k\u0000': ['\u0000'] } }), true);
      await probe(method, url, JSON.stringify({ nested: { k: ['\udc00'] } }), true);
      for (const f of fields) {
        await probe(method, url, JSON.stringify({ [f]: 'a\u0000b' }), true);
        await probe(method, url, JSON.stringify({ [f]: 'a\ud800b' }), true); // P104
        for (const w of WRONG) await probe(method, url, JSON.stringify({ [f]: w }), false);
      }
      for (const b of BROKEN) await probe(method, url, b, false);
      // Nesting deeper than any field allows is a 400 on every JSON route, as the whole body and in a field.
      await probe(method, url, deep('1'), true);
      await probe(method, url, deepArray, true);
      for (const f of fields) await probe(method, url, `{${JSON.stringify(f)}:${deep('null')}}`, true);
    }
  }
  assert.ok(requests > 400, `probed ${requests} requests`);
  console.log(`probed ${requests} requests`);
  assert.deepEqual(failures, []);
});

/** Credentials in headers that no surface should choke on: U+0000 inside Basic, broken base64, odd tokens. */
const b64 = (s: string) => Buffer.from(s).toString('base64');
const ODD_AUTHORIZATIONS = [
  `Basic ${b64('a\u0000b:secret')}`,
  `Basic ${b64('client:a\u0000b')}`,
  `Basic ${b64('%00:%00')}`,
  `Basic ${b64('%ED%A0%80:x')}`,
  'Basic !!!',
  'Basic',
  `Basic ${b64('no-colon')}`,
  'Bearer',
  'Bearer a.b.c',
  `Bearer csk_${'x'.repeat(43)}`,
  `Bearer ${'x'.repeat(8000)}`,
  `Bearer ${b64('{"alg":"none"}')}.${b64('{"sub":"a\u0000b"}')}.`,
];

test('no documented route answers 5xx to odd credentials in the Authorization header', async () => {
  const spec = (await t.request('GET', '/openapi.json')).body as {
    paths: Record<string, Record<string, Operation>>;
  };
  const failures: string[] = [];
  for (const [template, operations] of Object.entries(spec.paths))
    for (const m of Object.keys(operations)) {
      const method = m.toUpperCase();
      if (!['GET', 'POST', 'PATCH', 'PUT', 'DELETE'].includes(method)) continue;
      const url = template.replace(/\{[^}]+\}/g, 'x');
      const form = url.startsWith('/oauth/');
      for (const authorization of ODD_AUTHORIZATIONS) {
        const res = await t.app.inject({
          method: method as 'GET',
          url,
          headers: {
            authorization,
            'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
          },
          payload: method === 'GET' || method === 'DELETE' ? undefined : form ? 'token=x' : '{}',
        });
        if (res.statusCode >= 500 || res.statusCode === 429)
          failures.push(
            `${res.statusCode} ${method} ${url} ${authorization.slice(0, 40)}: ${res.body.slice(0, 120)}`,
          );
      }
    }
  assert.deepEqual(failures, []);
});
