import { AppAttestation } from '../domain/app-attestation/app-attestation.ts';
import {
  GooglePlayIntegrity,
  LocalPlayIntegrity,
  type PlayIntegrityDecoder,
} from '../providers/app-attestation/play-integrity.ts';
import type { Foundation } from './foundation.ts';

/**
 * The apps' attestations: Play Integrity through Google's API where a service account is set, else locally with
 * the Play Console's keys; App Attest against Apple's root.
 */
export function appAttestationFor(f: Foundation): AppAttestation {
  const { config, db, clock, metrics } = f;
  const { playIntegrity } = config.attestation;
  let decoder: PlayIntegrityDecoder | undefined;
  if (playIntegrity.serviceAccount)
    decoder = new GooglePlayIntegrity(playIntegrity.serviceAccount, playIntegrity.apiUrl, () => clock.now());
  else if (playIntegrity.decryptionKey && playIntegrity.verificationKey)
    decoder = new LocalPlayIntegrity({
      decryptionKey: playIntegrity.decryptionKey,
      verificationKey: playIntegrity.verificationKey,
    });
  return new AppAttestation({
    db,
    clock,
    challengeKey: f.keysFor('attestation-challenges').current,
    apps: config,
    settings: config.attestation,
    playIntegrity: decoder,
    checks: metrics.appAttestations,
  });
}
