// Whether a send's app attestation stands in for the proof of a person (the app-attestation room checks it).
//
// Rules it enforces:
// - APP_ATTESTATION=off: an attestation is not looked at, and every send is as it was.
// - prefer and require: an attestation that holds stands in for the proof of a person, whatever
//   CHALLENGE_MODE says (no proof of work, no CAPTCHA); one that does not hold is CHALLENGE_FAILED with its
//   reason; one Google could not be asked about leaves the send unattested.
// - require: a send that is not attested needs a solved proof of a person, breaker open or not, so a browser
//   still signs in through the challenge and an app never sees one.
import type { ChallengeMode } from '../../config/sms-defence-settings.ts';
import type { AppAttestation } from '../app-attestation/app-attestation.ts';
import type { SendProof } from './person-check.ts';

export type SendAttestation = Pick<AppAttestation, 'mode' | 'verify'>;

/** Whether the send is attested: its attestation checked where the mode looks at one. */
export async function attestedSend(
  attestation: SendAttestation | undefined,
  phone: string,
  proof: SendProof,
): Promise<boolean> {
  if (!attestation || attestation.mode === 'off' || !proof.attestation) return false;
  const purpose = proof.purpose ?? 'signup';
  return (await attestation.verify(proof.attestation, { phone, purpose })) === 'attested';
}

/** Whether a send must solve the proof of a person. */
export function personCheckNeeded(o: {
  attested: boolean;
  mode: SendAttestation['mode'] | undefined;
  challengeMode: ChallengeMode;
  breakerOpen: boolean;
}): boolean {
  if (o.attested) return false;
  if (o.mode === 'require') return true;
  return o.challengeMode === 'always' || (o.challengeMode === 'breaker' && o.breakerOpen);
}
