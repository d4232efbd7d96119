// The app-attestation room: whether a code's send comes from the genuine app on a genuine device, as Google's
// Play Integrity and Apple's App Attest say. It owns the challenge an attestation is made over
// (attestation-challenges.ts), an iOS key's registration and a send's attestation: a Play Integrity verdict
// (integrity-verdict.ts) or an App Attest assertion (app-attest.ts), each bound to the challenge, the number
// and the purpose (binding.ts). Its counts: `callsign_app_attestations_total`. How a token is read is the
// provider's (providers/app-attestation); what an attested send may skip is the SMS defence's.

import { createPublicKey } from 'node:crypto';
import type { Counter } from 'prom-client';
import type { AppSettings } from '../../config/app-settings.ts';
import type { AttestationMode, AttestationSettings } from '../../config/attestation-settings.ts';
import {
  IntegrityUnavailable,
  IntegrityUnreadable,
  type PlayIntegrityDecoder,
} from '../../providers/app-attestation/play-integrity.ts';
import type { Clock } from '../../providers/clock.ts';
import type { Database } from '../../storage/db.ts';
import { appAttestKeysRepo } from '../../storage/repositories/app-attest-keys.ts';
import { advanceAttestCounter } from '../../storage/rules/app-attest-counter.ts';
import { DomainError } from '../errors.ts';
import { AttestationRefused, verifyAssertion, verifyAttestation } from './app-attest.ts';
import { APPLE_APP_ATTEST_ROOT_PEM } from './apple-root.ts';
import { issueChallenge, useAttestationChallenge } from './attestation-challenges.ts';
import { bindingOf } from './binding.ts';
import { type AttestationRefusal, integrityRefusal } from './integrity-verdict.ts';

/** A send's attestation, as an app sends it. */
export type AttestationInput =
  | { platform: 'android'; package?: string; challenge: string; token: string }
  | { platform: 'ios'; challenge: string; key_id: string; assertion: string };

export interface AppAttestationDeps {
  db: Database;
  clock: Clock;
  /** signs the challenges */
  challengeKey: Buffer;
  apps: AppSettings;
  settings: AttestationSettings;
  /** reads Play Integrity tokens; undefined where none is configured */
  playIntegrity?: PlayIntegrityDecoder;
  checks?: Counter<'platform' | 'outcome'>;
}

/** An attestation that did not hold, in the REST surface's words. */
const failed = (reason: AttestationRefusal) =>
  new DomainError('CHALLENGE_FAILED', `the app's attestation was refused: ${reason}`, { reason });

/** A key id as an app sends it (base64, or base64url) and as it is kept (base64url). */
const keyIdOf = (keyId: string) => Buffer.from(keyId, 'base64');

export class AppAttestation {
  constructor(private readonly d: AppAttestationDeps) {}

  get mode(): AttestationMode {
    return this.d.settings.mode;
  }

  /** A challenge for one attestation, living 120 seconds. */
  challenge() {
    return issueChallenge(this.d.challengeKey, this.d.clock.now());
  }

  /** An iOS app's App Attest key, registered once from its attestation over a challenge of this service. */
  async registerAppleKey(input: { key_id: string; attestation: string; challenge: string }) {
    const now = this.d.clock.now();
    const keyId = keyIdOf(input.key_id);
    const { appAttest } = this.d.settings;
    const attested = await this.refusedAs('ios', () =>
      verifyAttestation(
        { keyId, attestation: Buffer.from(input.attestation, 'base64'), challenge: input.challenge },
        {
          apps: this.d.apps.iosApps,
          rootPem: appAttest.rootCaPem ?? APPLE_APP_ATTEST_ROOT_PEM,
          environment: appAttest.environment,
          now,
        },
      ),
    );
    await this.useChallenge('ios', input.challenge);
    const publicKey = String(attested.publicKey.export({ type: 'spki', format: 'pem' }));
    const stored = { keyId: keyId.toString('base64url'), appId: attested.appId, publicKey, now };
    if (!(await appAttestKeysRepo.insert(this.d.db, stored))) throw this.refuse('ios', 'replayed');
    return { key_id: stored.keyId, app_id: attested.appId };
  }

  /**
   * A send's attestation, for the number and purpose it names: `attested`, or `unavailable` where Google could
   * not be asked (the send is then treated as not attested); CHALLENGE_FAILED where it does not hold.
   */
  async verify(input: AttestationInput, send: { phone: string; purpose: string }) {
    const binding = bindingOf(input.challenge, send.phone, send.purpose);
    if (input.platform === 'android') {
      const outcome = await this.verifyAndroid(input, binding);
      if (outcome === 'unavailable') return outcome;
    } else await this.verifyIos(input, binding);
    this.d.checks?.inc({ platform: input.platform, outcome: 'attested' });
    return 'attested' as const;
  }

  private async verifyAndroid(input: Extract<AttestationInput, { platform: 'android' }>, binding: string) {
    const { androidApps } = this.d.apps;
    const app = input.package
      ? androidApps.find((a) => a.packageName === input.package)
      : androidApps.length === 1
        ? androidApps[0]
        : undefined;
    if (!app || !this.d.playIntegrity) throw this.refuse('android', 'app_not_recognized');
    let payload: Awaited<ReturnType<PlayIntegrityDecoder['decode']>>;
    try {
      payload = await this.d.playIntegrity.decode(input.token, app.packageName);
    } catch (err) {
      if (err instanceof IntegrityUnreadable) throw this.refuse('android', 'app_not_recognized');
      if (err instanceof IntegrityUnavailable) {
        this.d.checks?.inc({ platform: 'android', outcome: 'unavailable' });
        return 'unavailable' as const;
      }
      throw err;
    }
    const least = this.d.settings.playIntegrity.deviceVerdict;
    const refusal = integrityRefusal(payload, { app, binding, least, now: this.d.clock.now() });
    if (refusal) throw this.refuse('android', refusal);
    await this.useChallenge('android', input.challenge);
    return 'attested' as const;
  }

  private async verifyIos(input: Extract<AttestationInput, { platform: 'ios' }>, binding: string) {
    const keyId = keyIdOf(input.key_id).toString('base64url');
    const key = await appAttestKeysRepo.byId(this.d.db, keyId);
    if (!key) throw this.refuse('ios', 'app_not_recognized');
    const counter = await this.refusedAs('ios', () =>
      verifyAssertion(
        { assertion: Buffer.from(input.assertion, 'base64'), clientData: binding },
        { appId: key.app_id, publicKey: createPublicKey(key.public_key) },
      ),
    );
    await this.useChallenge('ios', input.challenge);
    if (!(await advanceAttestCounter(this.d.db, keyId, counter, this.d.clock.now())))
      throw this.refuse('ios', 'replayed');
  }

  private async useChallenge(platform: string, challenge: string) {
    const refusal = await useAttestationChallenge(
      { db: this.d.db, key: this.d.challengeKey },
      challenge,
      this.d.clock.now(),
    );
    if (refusal) throw this.refuse(platform, refusal);
  }

  /** Runs a check, turning its refusal into CHALLENGE_FAILED, counted. */
  private async refusedAs<T>(platform: string, check: () => T): Promise<T> {
    try {
      return check();
    } catch (err) {
      throw err instanceof AttestationRefused ? this.refuse(platform, err.reason) : err;
    }
  }

  private refuse(platform: string, reason: AttestationRefusal) {
    this.d.checks?.inc({ platform, outcome: reason });
    return failed(reason);
  }
}
