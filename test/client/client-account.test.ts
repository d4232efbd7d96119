import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createClient, memoryStorage, type Session } from '@callsign/client';
import { uniqueHandle, uniquePhone } from '../helpers/app.ts';
import { SoftAuthenticator } from '../helpers/authenticator.ts';
import { CLIENT_PIN, heard, type ListeningApp, listeningApp, signUpWith } from '../helpers/client-app.ts';
import {
  ADMIN_TOKEN,
  authorizationParams,
  authorizeUrl,
  decideConsent,
  pkce,
  registerClient,
  signInForSso,
} from '../helpers/oauth.ts';

// @callsign/client's account methods against a real Callsign over HTTP: profile, phone number, sessions,
// connected apps, identity verification, passkeys and recovery codes; each answer as the API documents it.

// The test app's hosted-page origin, which passkeys are made for (BASE_URL http://callsign.test).
const ORIGIN = 'http://callsign.test';

describe('@callsign/client: the signed-in account', () => {
  let s: ListeningApp;
  before(async () => {
    s = await listeningApp({ ADMIN_TOKEN, VERIFY_URL: 'http://127.0.0.1:9' });
  });
  after(() => s.t.close());

  async function signedIn() {
    const client = createClient({ baseUrl: s.baseUrl, storage: memoryStorage() });
    const session = await signUpWith(s.t, client);
    return { client, session };
  }

  test('users: me, update (USER_UPDATED, kept in the session), byHandle, checkHandle', async () => {
    const { client, session } = await signedIn();
    const events = heard(client);
    assert.deepEqual(await client.users.me(), session.user);
    assert.equal(events.length, 0, 'an unchanged account tells nothing');
    const updated = await client.users.update({ name: 'Ada Lovelace', bio: 'Engines' });
    assert.equal(updated.name, 'Ada Lovelace');
    assert.equal((await client.auth.getSession())?.user.name, 'Ada Lovelace');
    assert.deepEqual(
      events.map((e) => e.type),
      ['USER_UPDATED'],
    );
    const profile = await client.users.byHandle(`@${session.user.handle}`);
    assert.equal(profile.name, 'Ada Lovelace');
    assert.equal('phone' in profile, false, 'a public profile has no phone');
    assert.deepEqual(await client.users.checkHandle(session.user.handle), {
      handle: session.user.handle,
      available: false,
      reason: 'taken',
    });
    assert.equal((await client.users.checkHandle(uniqueHandle())).available, true);
    await assert.rejects(client.users.update({ handle: 'x' }), { code: 'INVALID_HANDLE', status: 400 });
  });

  test('users: a new phone number by its code and the PIN', async () => {
    const { client } = await signedIn();
    const phone = uniquePhone();
    const sent = await client.users.changePhone({ phone });
    assert.equal(sent.channel, 'sms');
    const moved = await client.users.confirmPhone({ phone, code: s.t.sms.lastCode(phone), pin: CLIENT_PIN });
    assert.equal(moved.phone, phone);
    assert.equal((await client.auth.getSession())?.user.phone, phone);
  });

  test('users: a new PIN by the current one; this session stays, the other ends', async () => {
    const { client, session } = await signedIn();
    const second = createClient({ baseUrl: s.baseUrl, storage: memoryStorage() });
    await second.auth.signIn({ phone: session.user.phone, pin: CLIENT_PIN });
    await assert.rejects(client.users.changePin({ currentPin: '918273', newPin: '730194' }), {
      code: 'INVALID_CREDENTIALS',
    });
    const changed = await client.users.changePin({ currentPin: CLIENT_PIN, newPin: '730194' });
    assert.equal(changed.sessions_ended, 1);
    assert.equal((await client.users.me()).id, session.user.id);
    await assert.rejects(second.users.me(), { code: 'INVALID_TOKEN' });
    const again = createClient({ baseUrl: s.baseUrl, storage: memoryStorage() });
    await again.auth.signIn({ phone: session.user.phone, pin: '730194' });
  });

  test('sessions: list, with this one marked, and revoke another', async () => {
    const { client, session } = await signedIn();
    const second = createClient({ baseUrl: s.baseUrl, storage: memoryStorage() });
    await second.auth.signIn({ phone: session.user.phone, pin: CLIENT_PIN });
    const listed = await client.sessions.list({ limit: 10 });
    assert.equal(listed.total, 2);
    const other = listed.sessions.find((x) => !x.current);
    assert.ok(other);
    assert.deepEqual(await client.sessions.revoke(other.id), { revoked: true });
    assert.equal((await client.sessions.list()).total, 1);
    await assert.rejects(second.users.me(), { code: 'INVALID_TOKEN' });
    assert.equal(await second.auth.getSession(), null);
  });

  test('apps: the applications the user allowed, and withdrawing one', async () => {
    const { client, session } = await signedIn();
    const shop = await registerClient(s.t, {
      client_name: 'Shop',
      token_endpoint_auth_method: 'none',
      first_party: false,
    });
    const params = authorizationParams(shop.client_id, pkce().challenge, { scope: 'openid profile' });
    const { cookie } = await signInForSso(s.t, params, { phone: session.user.phone, pin: CLIENT_PIN });
    const page = await s.t.request('GET', authorizeUrl(params), { headers: { cookie } });
    await decideConsent(s.t, String(page.body), cookie, 'allow');
    const { apps } = await client.apps.list();
    assert.deepEqual(
      apps.map((a) => [a.client_id, a.client_name]),
      [[shop.client_id, 'Shop']],
    );
    assert.equal((await client.apps.revoke(shop.client_id)).revoked, true);
    assert.deepEqual((await client.apps.list()).apps, []);
    await assert.rejects(client.apps.revoke(shop.client_id), { code: 'NOT_FOUND', status: 404 });
  });

  test('kyc: the status, and a one-time link to verify', async () => {
    const { client } = await signedIn();
    assert.equal((await client.kyc.status()).status, 'none');
    const started = await client.kyc.initiate();
    assert.match(started.verification_url, /^http:\/\/127\.0\.0\.1:9\//);
    assert.equal(started.expires_in, 1800);
  });

  test('passkeys: register, list, rename, sign in with one, remove', async () => {
    const { client, session } = await signedIn();
    const key = new SoftAuthenticator(ORIGIN);
    const options = await client.passkeys.registrationOptions();
    const created = await client.passkeys.register(key.create(options) as never);
    assert.equal(created.device_type, 'single_device');
    assert.equal((await client.passkeys.rename(created.id, 'Work laptop')).name, 'Work laptop');
    const listed = await client.passkeys.list();
    assert.deepEqual(
      listed.passkeys.map((p) => p.name),
      ['Work laptop'],
    );
    const other = createClient({ baseUrl: s.baseUrl, storage: memoryStorage() });
    const signInOptions = await other.auth.passkeyOptions();
    const byPasskey: Session = await other.auth.signInWithPasskey(key.get(signInOptions) as never);
    assert.equal(byPasskey.user.id, session.user.id);
    assert.deepEqual(await client.passkeys.remove(created.id), { deleted: true });
    assert.equal((await client.passkeys.list()).total, 0);
  });

  test('recovery codes: a set made with the PIN, and how many are left', async () => {
    const { client } = await signedIn();
    assert.equal((await client.recoveryCodes.status()).remaining, 0);
    const made = await client.recoveryCodes.create({ pin: CLIENT_PIN });
    assert.equal(made.codes.length, 10);
    assert.equal((await client.recoveryCodes.status()).remaining, 10);
    await assert.rejects(client.recoveryCodes.create({ pin: '000000' }), { code: 'INVALID_CREDENTIALS' });
  });

  test('users.delete: the account deleted with the PIN, and the session ended here', async () => {
    const { client, session } = await signedIn();
    const events = heard(client);
    await assert.rejects(client.users.delete({ pin: '000000' }), { code: 'INVALID_CREDENTIALS' });
    const deleted = await client.users.delete({ pin: CLIENT_PIN });
    // The API's own answer, as every other resource the client returns.
    assert.deepEqual(Object.keys(deleted).sort(), ['deleted', 'hard_delete_at']);
    assert.equal(deleted.deleted, true);
    assert.ok(Date.parse(deleted.hard_delete_at) > Date.now());
    assert.deepEqual(events, [{ type: 'SIGNED_OUT', session: null, reason: 'signed_out' }]);
    const again = createClient({ baseUrl: s.baseUrl, storage: memoryStorage() });
    await assert.rejects(again.auth.signIn({ phone: session.user.phone, pin: CLIENT_PIN }), {
      code: 'INVALID_CREDENTIALS',
    });
  });
});
