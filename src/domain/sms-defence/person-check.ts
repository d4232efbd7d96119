import type { Challenge } from 'altcha-lib/types';
import type { AttestationInput } from '../app-attestation/app-attestation.ts';
import type { DomainError } from '../errors.ts';

/** What a send may carry to show that a person, not a script, asks for it. */
export interface SendProof {
  /** the answer to a proof-of-work challenge (ALTCHA's payload, base64) */
  challengeSolution?: string;
  /** the token a hosted CAPTCHA's widget gave the browser */
  captchaToken?: string;
  /** the address the send came from, which a CAPTCHA vendor checks the token against */
  address?: string;
  /** the app's attestation (Play Integrity or App Attest), where the app sends one */
  attestation?: AttestationInput;
  /** what the code is for: an attestation is bound to it */
  purpose?: string;
}

/** A hosted CAPTCHA to show, with the public key its widget is drawn with. */
export interface CaptchaWidget {
  provider: 'turnstile' | 'hcaptcha';
  site_key: string;
}

/** The check a send must pass while the SMS defence asks for proof of a person. */
export interface PersonCheck {
  /** What a client needs for its proof: a challenge to solve, or the CAPTCHA to show. */
  issue(): Promise<Challenge | CaptchaWidget>;
  /** CHALLENGE_REQUIRED, carrying what `issue` answers. */
  required(message?: string): Promise<DomainError>;
  /** Uses the proof up, or throws CHALLENGE_REQUIRED. */
  redeem(proof: SendProof): Promise<void>;
}
