import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestApp, type RequestOptions, signUp, type TestApp, uniquePhone } from '../helpers/app.ts';
import {
  ADMIN_TOKEN,
  adminRequest,
  authorizationParams,
  authorizeWithPin,
  exchangeCode,
  pkce,
  registerClient,
} from '../helpers/oauth.ts';
import { answerChecker } from '../helpers/openapi.ts';

// The answers the OpenAPI document gives are the answers the service gives: the operations a user, a client
// and an operator use, each answer held to the schema its operation documents for its status. (Every refusal
// of every route is held to its schema by the every-route input test.)

let t: TestApp;
let check: ReturnType<typeof answerChecker>;
const wrong: string[] = [];
let seen = 0;

before(async () => {
  t = await createTestApp({ env: { ADMIN_TOKEN } });
  check = answerChecker((await t.request('GET', '/openapi.json')).body);
});
after(() => t.close());

/** A request whose answer must be the documented one; `template` is its path as the document names it. */
async function documented(method: string, template: string, url: string, opts: RequestOptions = {}) {
  const res = await t.request(method, url, opts);
  const contentType = String(res.headers['content-type'] ?? '');
  const problem = check(method, template, res.status, contentType, res.body);
  seen++;
  if (problem) wrong.push(problem);
  return res;
}

const admin = { token: ADMIN_TOKEN };

test('a user, a client and an operator get the answers the document gives', async () => {
  // REST: codes, sign-up, sign-in, the profile, sessions, KYC.
  await documented('GET', '/health', '/health');
  await documented('GET', '/', '/', { headers: { accept: 'application/json' } });
  const phone = uniquePhone();
  await documented('POST', '/auth/otp/send', '/auth/otp/send', { body: { phone, purpose: 'signup' } });
  const user = await signUp(t);
  const signin = await documented('POST', '/auth/signin', '/auth/signin', {
    body: { phone: user.phone, pin: user.pin },
  });
  const token = signin.body.data.access_token as string;
  const refreshed = await documented('POST', '/auth/refresh', '/auth/refresh', {
    body: { refresh_token: signin.body.data.refresh_token },
  });
  await documented('GET', '/users/me', '/users/me', { token });
  await documented('PATCH', '/users/me', '/users/me', { token, body: { bio: 'Analyst', language: 'en-GB' } });
  await documented('GET', '/users/@{handle}', `/users/@${user.handle}`);
  await documented('GET', '/users/handle/check', '/users/handle/check?handle=grace_hopper');
  const sessions = await documented('GET', '/sessions', '/sessions', { token });
  await documented('GET', '/users/me/apps', '/users/me/apps', { token });
  await documented('POST', '/kyc/initiate', '/kyc/initiate', { token });
  await documented('GET', '/kyc/status', '/kyc/status', { token });
  await documented('POST', '/users/me/phone', '/users/me/phone', { token, body: { phone: uniquePhone() } });
  const other = sessions.body.data.sessions.find((s: { current: boolean }) => !s.current);
  if (other) await documented('DELETE', '/sessions/{id}', `/sessions/${other.id}`, { token });
  await documented('POST', '/auth/logout', '/auth/logout', {
    token,
    body: { refresh_token: refreshed.body.data.refresh_token },
  });

  // OAuth: discovery, a code and its tokens, introspection, userinfo, revocation.
  await documented('GET', '/.well-known/openid-configuration', '/.well-known/openid-configuration');
  await documented(
    'GET',
    '/.well-known/oauth-authorization-server',
    '/.well-known/oauth-authorization-server',
  );
  await documented('GET', '/.well-known/jwks.json', '/.well-known/jwks.json');
  const client = await registerClient(t, {
    token_endpoint_auth_method: 'none',
    scope: 'openid profile phone profile:write',
    grant_types: ['authorization_code', 'refresh_token'],
  });
  const { verifier, challenge } = pkce();
  const scope = 'openid profile phone profile:write';
  const back = await authorizeWithPin(t, authorizationParams(client.client_id, challenge, { scope }), user);
  const tokens = await exchangeCode(t, client.client_id, back.searchParams.get('code') as string, verifier);
  assert.ok(check('POST', '/oauth/token', tokens.status, 'application/json', tokens.body) === undefined);
  const oauthToken = tokens.body.access_token as string;
  await documented('GET', '/oauth/userinfo', '/oauth/userinfo', { token: oauthToken });
  const confidential = await registerClient(t);
  await documented('POST', '/oauth/introspect', '/oauth/introspect', {
    body: new URLSearchParams({ token: oauthToken }).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${confidential.client_id}:${confidential.client_secret}`).toString('base64')}`,
    },
  });
  await documented('POST', '/oauth/revoke', '/oauth/revoke', {
    body: new URLSearchParams({ token: 'unknown', client_id: client.client_id }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

  // /api/v1 with the user's token, and server to server with an API key.
  await documented('GET', '/api/v1/users/me', '/api/v1/users/me', { token: oauthToken });
  await documented('PATCH', '/api/v1/users/me', '/api/v1/users/me', {
    token: oauthToken,
    body: { name: 'Ada' },
  });
  await documented('PATCH', '/api/v1/users/me/metadata', '/api/v1/users/me/metadata', {
    token: oauthToken,
    body: { plan: 'pro' },
  });
  const key = (await adminRequest(t, 'POST', '/api-keys', { name: 'docs' })).body.key as string;
  await documented('GET', '/api/v1/users/{id}', `/api/v1/users/${user.user.id}`, { token: key });
  await documented('GET', '/api/v1/users', `/api/v1/users?phone=${encodeURIComponent(user.phone)}`, {
    token: key,
  });

  // The admin API.
  const created = await documented('POST', '/admin/v1/clients', '/admin/v1/clients', {
    ...admin,
    body: { client_name: 'Docs', redirect_uris: ['https://docs.example/cb'], first_party: true },
  });
  const clientId = created.body.client_id as string;
  await documented('GET', '/admin/v1/clients', '/admin/v1/clients', admin);
  await documented('GET', '/admin/v1/clients/{id}', `/admin/v1/clients/${clientId}`, admin);
  await documented('PATCH', '/admin/v1/clients/{id}', `/admin/v1/clients/${clientId}`, {
    ...admin,
    body: { client_name: 'Docs 2' },
  });
  await documented(
    'GET',
    '/admin/v1/clients/{id}/backchannel-logouts',
    `/admin/v1/clients/${clientId}/backchannel-logouts`,
    admin,
  );
  await documented('POST', '/admin/v1/api-keys', '/admin/v1/api-keys', {
    ...admin,
    body: { name: 'second' },
  });
  await documented('GET', '/admin/v1/api-keys', '/admin/v1/api-keys', admin);
  await documented('POST', '/admin/v1/keys/rotate', '/admin/v1/keys/rotate', admin);
  await documented('GET', '/admin/v1/keys/pin-pepper', '/admin/v1/keys/pin-pepper', admin);
  await documented('POST', '/admin/v1/keys/reencrypt', '/admin/v1/keys/reencrypt', admin);
  const endpoint = await documented('POST', '/admin/v1/webhook-endpoints', '/admin/v1/webhook-endpoints', {
    ...admin,
    body: { url: 'https://hooks.example/callsign', events: ['user.created'] },
  });
  const endpointId = endpoint.body.id as string;
  await documented('GET', '/admin/v1/webhook-endpoints', '/admin/v1/webhook-endpoints', admin);
  await documented(
    'GET',
    '/admin/v1/webhook-endpoints/{id}',
    `/admin/v1/webhook-endpoints/${endpointId}`,
    admin,
  );
  await documented('PATCH', '/admin/v1/webhook-endpoints/{id}', `/admin/v1/webhook-endpoints/${endpointId}`, {
    ...admin,
    body: { enabled: false },
  });
  await documented(
    'POST',
    '/admin/v1/webhook-endpoints/{id}/roll-secret',
    `/admin/v1/webhook-endpoints/${endpointId}/roll-secret`,
    admin,
  );
  await documented(
    'GET',
    '/admin/v1/webhook-endpoints/{id}/deliveries',
    `/admin/v1/webhook-endpoints/${endpointId}/deliveries`,
    admin,
  );
  await documented('GET', '/admin/v1/kyc/verifications', '/admin/v1/kyc/verifications', admin);
  await documented('GET', '/admin/v1/users', `/admin/v1/users?q=${encodeURIComponent(user.phone)}`, admin);
  await documented('GET', '/admin/v1/users/{id}', `/admin/v1/users/${user.user.id}`, admin);
  await documented('POST', '/admin/v1/users/{id}/lock', `/admin/v1/users/${user.user.id}/lock`, admin);
  await documented('POST', '/admin/v1/users/{id}/unlock', `/admin/v1/users/${user.user.id}/unlock`, admin);
  await documented('GET', '/admin/v1/overview', '/admin/v1/overview', admin);
  await documented('GET', '/admin/v1/actions', '/admin/v1/actions', admin);
  await documented(
    'DELETE',
    '/admin/v1/webhook-endpoints/{id}',
    `/admin/v1/webhook-endpoints/${endpointId}`,
    admin,
  );
  await documented('DELETE', '/admin/v1/clients/{id}', `/admin/v1/clients/${clientId}`, admin);
  await documented('DELETE', '/api/v1/users/me/avatar', '/api/v1/users/me/avatar', { token: oauthToken });

  assert.ok(seen >= 50, `${seen} answers checked`);
  assert.deepEqual(wrong, []);
});

/** Whether a documented body says what it holds: a JSON schema with fields, items or a type; HTML or text. */
function typed(mediaType: string, schema: Record<string, unknown> | undefined): boolean {
  if (!schema) return false;
  if (mediaType !== 'application/json')
    return typeof schema.type === 'string' || typeof schema.format === 'string';
  if (schema.$ref || schema.anyOf || schema.oneOf || schema.allOf) return true;
  if (schema.type === 'object')
    return (
      Object.keys((schema.properties as object | undefined) ?? {}).length > 0 ||
      schema.additionalProperties === false
    );
  return typeof schema.type === 'string';
}

test('every operation documents a typed success: JSON by schema, HTML as text/html, empty as 204 or a redirect', async () => {
  const spec = (await t.request('GET', '/openapi.json')).body as {
    paths: Record<
      string,
      Record<
        string,
        { responses: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }> }
      >
    >;
  };
  const untyped: string[] = [];
  for (const [path, operations] of Object.entries(spec.paths))
    for (const [method, operation] of Object.entries(operations)) {
      const name = `${method.toUpperCase()} ${path}`;
      const successes = Object.entries(operation.responses).filter(([status]) => /^[23]/.test(status));
      if (!successes.length) untyped.push(`${name}: no success documented`);
      // A page that only redirects elsewhere (such as /account) is not an API operation.
      if (!successes.some(([status]) => status.startsWith('2')))
        untyped.push(`${name}: no 2xx answer; a page reached by a link belongs out of the document`);
      for (const [status, answer] of successes) {
        if (status === '204' || status.startsWith('3')) {
          if (answer.content) untyped.push(`${name} ${status}: a body where none is sent`);
          continue;
        }
        const media = Object.entries(answer.content ?? {});
        if (!media.length) untyped.push(`${name} ${status}: no content`);
        for (const [type, { schema }] of media)
          if (!typed(type, schema)) untyped.push(`${name} ${status} ${type}: untyped`);
      }
    }
  assert.deepEqual(untyped, []);
});
