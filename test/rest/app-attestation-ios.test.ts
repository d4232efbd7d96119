import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp, uniqueIp, uniquePhone } from '../helpers/app.ts';
import {
  type AppAttestAuthority,
  appAttestAssertion,
  appAttestAuthority,
  appAttestKey,
  bindingOf,
} from '../helpers/attestation.ts';

// App Attest through HTTP, under a test root standing in for Apple's: a key registered once from its
// attestation over a challenge, each rule of the registration broken and refused; then sends whose assertion
// over the send's binding goes without a challenge, a replayed counter, another binding and an unknown key
// refused with their reasons.

const APP_ID = 'ABCDE12345.com.duka.app';

describe('app attestation: App Attest', () => {
  let t: TestApp;
  let authority: AppAttestAuthority;
  before(async () => {
    authority = await appAttestAuthority();
    t = await createTestApp({
      env: {
        APP_ATTESTATION: 'prefer',
        CHALLENGE_MODE: 'always',
        IOS_APPS: APP_ID,
        APP_ATTEST_ROOT_CA: authority.rootPemFile,
      },
    });
  });
  after(() => t.close());

  const challenge = async () =>
    (await t.request('GET', '/auth/attestation/challenge')).body.data.challenge as string;
  const register = (body: object) => t.request('POST', '/auth/attestation/apple/keys', { body });
  const send = (phone: string, attestation: object, purpose = 'signup') =>
    t.request('POST', '/auth/otp/send', { body: { phone, purpose, attestation }, ip: uniqueIp() });
  const reasonOf = (res: {
    status: number;
    body: { error?: { code: string; details: { reason?: string } } };
  }) => {
    assert.equal(res.status, 403, JSON.stringify(res.body));
    assert.equal(res.body.error?.code, 'CHALLENGE_FAILED');
    return res.body.error?.details.reason;
  };

  /** A key of the app, registered. */
  async function registeredKey() {
    const c = await challenge();
    const key = await appAttestKey(authority, { appId: APP_ID, challenge: c });
    const res = await register({ key_id: key.keyId, attestation: key.attestation, challenge: c });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.app_id, APP_ID);
    return { ...key, keyIdUrl: res.body.data.key_id as string };
  }

  /** An assertion of `key` over a send's binding. */
  async function assertion(
    key: Awaited<ReturnType<typeof registeredKey>>,
    phone: string,
    counter: number,
    purpose = 'signup',
  ) {
    const c = await challenge();
    const clientData = bindingOf(c, phone, purpose);
    return {
      platform: 'ios',
      challenge: c,
      key_id: key.keyId,
      assertion: appAttestAssertion(key, { appId: APP_ID, clientData, counter }),
    };
  }

  test('a key is registered once; its registration again is replayed', async () => {
    const c = await challenge();
    const key = await appAttestKey(authority, { appId: APP_ID, challenge: c });
    assert.equal(
      (await register({ key_id: key.keyId, attestation: key.attestation, challenge: c })).status,
      200,
    );
    const again = await challenge();
    const same = await appAttestKey(authority, { appId: APP_ID, challenge: again });
    // The same key id cannot be attested twice: the second registration of the first key's attestation.
    assert.equal(
      reasonOf(await register({ key_id: key.keyId, attestation: key.attestation, challenge: c })),
      'replayed',
    );
    assert.equal(
      (await register({ key_id: same.keyId, attestation: same.attestation, challenge: again })).status,
      200,
    );
  });

  test('each rule of a registration, broken, is refused with its reason', async () => {
    const cases: Array<[string, (c: string) => Promise<{ keyId: string; attestation: string }>]> = [
      [
        'app_not_recognized',
        (c) => appAttestKey(authority, { appId: 'ZZZZZ99999.com.other.app', challenge: c }),
      ],
      [
        'app_not_recognized',
        (c) => appAttestKey(authority, { appId: APP_ID, challenge: c, environment: 'development' }),
      ],
      [
        'wrong_binding',
        (c) => appAttestKey(authority, { appId: APP_ID, challenge: c, nonce: Buffer.alloc(32, 7) }),
      ],
    ];
    for (const [reason, make] of cases) {
      const c = await challenge();
      const key = await make(c);
      assert.equal(
        reasonOf(await register({ key_id: key.keyId, attestation: key.attestation, challenge: c })),
        reason,
      );
    }
    const c = await challenge();
    const key = await appAttestKey(authority, { appId: APP_ID, challenge: c });
    const another = await appAttestKey(authority, { appId: APP_ID, challenge: c });
    assert.equal(
      reasonOf(await register({ key_id: another.keyId, attestation: key.attestation, challenge: c })),
      'app_not_recognized',
      'the key id is the attested key’s',
    );
    const stranger = await appAttestAuthority();
    const foreign = await appAttestKey(stranger, { appId: APP_ID, challenge: c });
    assert.equal(
      reasonOf(await register({ key_id: foreign.keyId, attestation: foreign.attestation, challenge: c })),
      'app_not_recognized',
      'a chain to another root',
    );
  });

  test('a send asserted by a registered key goes without a challenge; its counter must grow', async () => {
    const key = await registeredKey();
    const phone = uniquePhone();
    const sent = await send(phone, await assertion(key, phone, 1));
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(t.sms.messagesTo(phone).length, 1);
    const next = uniquePhone();
    assert.equal(reasonOf(await send(next, await assertion(key, next, 1))), 'replayed');
    assert.equal((await send(next, await assertion(key, next, 2))).status, 200);
  });

  test('an assertion over another binding, or by a key never registered, is refused', async () => {
    const key = await registeredKey();
    const phone = uniquePhone();
    const forSignIn = await assertion(key, phone, 5, 'signin');
    assert.equal(reasonOf(await send(phone, forSignIn, 'signup')), 'wrong_binding');
    const stray = await appAttestKey(authority, { appId: APP_ID, challenge: await challenge() });
    const c = await challenge();
    const clientData = bindingOf(c, phone, 'signup');
    const unknown = {
      platform: 'ios',
      challenge: c,
      key_id: stray.keyId,
      assertion: appAttestAssertion(stray, { appId: APP_ID, clientData, counter: 1 }),
    };
    assert.equal(reasonOf(await send(phone, unknown)), 'app_not_recognized');
    assert.equal(t.sms.messagesTo(phone).length, 0);
  });
});
