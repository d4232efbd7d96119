import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  type Answer,
  createTestApp,
  type SignedUp,
  signUp,
  type TestApp,
  uniquePhone,
} from '../helpers/app.ts';
import { SoftAuthenticator } from '../helpers/authenticator.ts';
import { sourceFilesThatRan } from '../helpers/coverage.ts';
import {
  ADMIN_TOKEN,
  adminRequest,
  authorizationParams,
  authorizeWithPin,
  exchangeCode,
  pkce,
  postSignIn,
  refreshGrant,
  registerClient,
  signInForm,
} from '../helpers/oauth.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

// The map is true: each request docs/architecture.md traces is run here under V8's precise coverage, and the
// files of `src/` whose functions ran are exactly the plumbing the page names once plus the files its trace
// names. No file of `composition/` runs inside a request.

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const PAGE = fileURLToPath(new URL('../../docs/architecture.md', import.meta.url));
/** The most files of its own a traced request may run: a code's send, the longest trace. */
const MOST_FILES_OF_A_TRACE = 15;

/** The page's sections: the plumbing's files, and each trace's title and the file each step names. */
function map() {
  const sections = readFileSync(PAGE, 'utf8').split(/^### /m);
  const plumbing = sections.find((s) => s.startsWith('What every request runs through'));
  assert.ok(plumbing, 'the page names the plumbing every request runs through');
  return {
    plumbing: new Set([...plumbing.matchAll(/`([\w/.-]+\.(?:ts|js))`/g)].map((m) => m[1])),
    traces: sections
      .filter((s) => s.startsWith('Trace: '))
      .map((s) => ({
        title: s
          .split('\n')[0]
          .slice('Trace: '.length)
          .replace(/ \(.*$/, ''),
        files: [...s.matchAll(/^\d+\. `([^`]+)`/gm)].map((m) => m[1]),
      })),
  };
}

describe('each traced request runs through the files the architecture page names', () => {
  let t: TestApp;
  let s: SignedUp;
  let inspector: Session;
  let tokens: { rest: string; oauth: string; clientId: string };
  let key: SoftAuthenticator;
  let receiver: WebhookReceiver;

  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
    s = await signUp(t);
    const { client_id: clientId } = await registerClient(t, { token_endpoint_auth_method: 'none' });
    const { verifier, challenge } = pkce();
    const back = await authorizeWithPin(t, authorizationParams(clientId, challenge), s);
    const code = back.searchParams.get('code') as string;
    const exchanged = await exchangeCode(t, clientId, code, verifier);
    tokens = { rest: s.refresh_token, oauth: exchanged.body.refresh_token, clientId };
    key = new SoftAuthenticator('http://callsign.test');
    const options = await t.request('POST', '/passkeys/registration/options', { token: s.access_token });
    const response = key.create(options.body.data);
    await t.request('POST', '/passkeys/registration', { token: s.access_token, body: { response } });
    receiver = new WebhookReceiver();
    await adminRequest(t, 'POST', '/webhook-endpoints', {
      url: await receiver.start(),
      events: ['user.updated'],
    });
    inspector = new Session();
    inspector.connect();
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  });
  after(async () => {
    await inspector?.post('Profiler.stopPreciseCoverage');
    inspector?.disconnect();
    await receiver?.close();
    await t?.close();
  });

  /** The files of `src/` whose functions ran while `run` did. */
  async function filesThatRan(run: () => Promise<void>): Promise<Set<string>> {
    await inspector.post('Profiler.takePreciseCoverage');
    await run();
    const { result } = await inspector.post('Profiler.takePreciseCoverage');
    return new Set(
      [...sourceFilesThatRan(result)]
        .filter((url) => url.startsWith(`file://${SRC}`))
        .map((url) => url.slice(`file://${SRC}`.length)),
    );
  }

  const ok = (answer: Answer, status = 200) =>
    assert.equal(answer.status, status, JSON.stringify(answer.body));

  /** Each traced request, as the page titles it; each runs once before it is measured. */
  const requests: Record<string, () => Promise<void>> = {
    'POST /auth/signin': async () =>
      ok(await t.request('POST', '/auth/signin', { body: { phone: s.phone, pin: s.pin } })),
    'POST /auth/refresh': async () => {
      const res = await t.request('POST', '/auth/refresh', { body: { refresh_token: tokens.rest } });
      ok(res);
      tokens.rest = res.body.data.refresh_token;
    },
    'POST /auth/otp/send': async () =>
      ok(await t.request('POST', '/auth/otp/send', { body: { phone: uniquePhone(), purpose: 'signup' } })),
    'POST /auth/otp/verify': async () => {
      const phone = uniquePhone();
      ok(await t.request('POST', '/auth/otp/send', { body: { phone, purpose: 'signup' } }));
      const code = t.sms.lastCode(phone);
      const verified = await filesThatRan(async () =>
        ok(await t.request('POST', '/auth/otp/verify', { body: { phone, purpose: 'signup', code } })),
      );
      verifyRan = verified;
    },
    'POST /oauth/token': async () => {
      const res = await refreshGrant(t, tokens.clientId, tokens.oauth);
      ok(res);
      tokens.oauth = res.body.refresh_token;
    },
    'POST /auth/passkey/verify': async () => {
      const options = await t.request('POST', '/auth/passkey/options', { body: {} });
      const response = key.get(options.body.data);
      passkeyRan = await filesThatRan(async () =>
        ok(await t.request('POST', '/auth/passkey/verify', { body: { response } })),
      );
    },
    'POST /authorize/signin': async () => {
      const form = await signInForm(t, authorizationParams(tokens.clientId, pkce().challenge));
      hostedRan = await filesThatRan(async () => ok(await postSignIn(t, form, s), 302));
    },
    'a webhook delivery': async () => {
      const name = `Ada ${++renamed}`;
      ok(await t.request('PATCH', '/users/me', { token: s.access_token, body: { name } }));
      deliveryRan = await filesThatRan(async () => assert.equal(await t.c.deliveries.deliverDue(), 1));
    },
  };
  // Requests that need others before them are measured inside their runner.
  let renamed = 0;
  let verifyRan: Set<string> | undefined;
  let passkeyRan: Set<string> | undefined;
  let hostedRan: Set<string> | undefined;
  let deliveryRan: Set<string> | undefined;
  const measuredInside: Record<string, () => Set<string> | undefined> = {
    'POST /auth/otp/verify': () => verifyRan,
    'POST /auth/passkey/verify': () => passkeyRan,
    'POST /authorize/signin': () => hostedRan,
    'a webhook delivery': () => deliveryRan,
  };

  test('the page traces each of these requests', () => {
    assert.deepEqual(
      map()
        .traces.map((trace) => trace.title)
        .sort(),
      Object.keys(requests).sort(),
    );
  });

  for (const title of Object.keys(requests))
    test(`${title} runs the plumbing and the files of its trace, each named once`, async () => {
      const { plumbing, traces } = map();
      const trace = traces.find((each) => each.title === title);
      assert.ok(trace, `no trace of ${title}`);
      assert.equal(new Set(trace.files).size, trace.files.length, 'a file is named twice');
      assert.ok(trace.files.length <= MOST_FILES_OF_A_TRACE, `${trace.files.length} files`);
      for (const file of trace.files) assert.ok(!plumbing.has(file), `${file} is named as plumbing too`);
      await requests[title]();
      const measured = measuredInside[title];
      let ran: Set<string> | undefined;
      if (measured) {
        await requests[title]();
        ran = measured();
      } else ran = await filesThatRan(requests[title]);
      assert.ok(ran);
      assert.deepEqual(
        [...ran].filter((file) => file.startsWith('composition/')),
        [],
        'no file of composition/ runs inside a request',
      );
      const own = [...ran].filter((file) => !plumbing.has(file)).sort();
      assert.deepEqual(own, [...trace.files].sort(), `the files ${title} ran, beside the plumbing`);
    });
});
