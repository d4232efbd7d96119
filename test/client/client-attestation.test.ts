import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { attestationBinding, CallsignError, createClient, memoryStorage } from '@callsign/client';
import { uniquePhone } from '../helpers/app.ts';
import {
  type AppAttestAuthority,
  appAttestAssertion,
  appAttestAuthority,
  appAttestKey,
  integrityToken,
  playIntegrityKeys,
  verdict,
} from '../helpers/attestation.ts';
import { type ListeningApp, listeningApp } from '../helpers/client-app.ts';

// @callsign/client passes an app's attestation through: the challenge, an iOS key's registration, and a send
// attested by Play Integrity or App Attest that needs no challenge; a refused one is a CallsignError with its
// reason.

const PACKAGE = 'com.duka.app';
const APP_ID = 'ABCDE12345.com.duka.app';
const CERT = createHash('sha256').update('the Duka app’s signing certificate').digest('hex');

describe('@callsign/client: app attestation', () => {
  let s: ListeningApp;
  let authority: AppAttestAuthority;
  const keys = playIntegrityKeys();
  before(async () => {
    authority = await appAttestAuthority();
    s = await listeningApp({
      APP_ATTESTATION: 'prefer',
      CHALLENGE_MODE: 'always',
      ANDROID_APPS: `${PACKAGE}:${CERT.toUpperCase().match(/../g)?.join(':')}`,
      IOS_APPS: APP_ID,
      PLAY_INTEGRITY_DECRYPTION_KEY: keys.decryptionKey,
      PLAY_INTEGRITY_VERIFICATION_KEY: keys.verificationKey,
      APP_ATTEST_ROOT_CA: authority.rootPemFile,
    });
  });
  after(() => s?.t.close());

  test('Android: a send attested by Play Integrity; a token for another number is refused with its reason', async () => {
    const client = createClient({ baseUrl: s.baseUrl, storage: memoryStorage() });
    const phone = uniquePhone();
    const { challenge, expiresIn } = await client.auth.attestationChallenge();
    assert.equal(expiresIn, 120);
    const binding = attestationBinding(challenge, phone, 'signup');
    const now = s.t.clock.now();
    const token = await integrityToken(
      keys,
      verdict({ packageName: PACKAGE, certificateHex: CERT, binding, now }),
    );
    const sent = await client.auth.sendCode({
      phone,
      purpose: 'signup',
      attestation: { platform: 'android', challenge, token },
    });
    assert.equal(sent.channel, 'sms');
    const other = uniquePhone();
    const next = await client.auth.attestationChallenge();
    const wrong = await integrityToken(
      keys,
      verdict({
        packageName: PACKAGE,
        certificateHex: CERT,
        binding: attestationBinding(next.challenge, phone, 'signup'),
        now,
      }),
    );
    await assert.rejects(
      client.auth.sendCode({
        phone: other,
        purpose: 'signup',
        attestation: { platform: 'android', challenge: next.challenge, token: wrong },
      }),
      (err) =>
        err instanceof CallsignError &&
        err.code === 'CHALLENGE_FAILED' &&
        err.details.reason === 'wrong_binding',
    );
  });

  test('iOS: the key registered once, then a send asserted by it', async () => {
    const client = createClient({ baseUrl: s.baseUrl, storage: memoryStorage() });
    const first = await client.auth.attestationChallenge();
    const key = await appAttestKey(authority, { appId: APP_ID, challenge: first.challenge });
    const registered = await client.auth.registerAppleKey({
      keyId: key.keyId,
      attestation: key.attestation,
      challenge: first.challenge,
    });
    assert.equal(registered.appId, APP_ID);
    const phone = uniquePhone();
    const { challenge } = await client.auth.attestationChallenge();
    const assertion = appAttestAssertion(key, {
      appId: APP_ID,
      clientData: attestationBinding(challenge, phone, 'signup'),
      counter: 1,
    });
    const sent = await client.auth.sendCode({
      phone,
      purpose: 'signup',
      attestation: { platform: 'ios', challenge, keyId: key.keyId, assertion },
    });
    assert.equal(sent.channel, 'sms');
  });
});
