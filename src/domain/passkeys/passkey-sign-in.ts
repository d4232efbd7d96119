// Signing in with a passkey: the browser is asked for any passkey of this service (no account is named, so
// none is revealed), and the signed answer signs in like a PIN (accounts/sign-in.ts).
//
// Rules it enforces:
// - A sign-in's challenge is used once and lives 5 minutes; user verification is required.
// - An unknown passkey, a bad signature, a used or expired challenge, a missing user verification, an
//   answer for another origin or RP ID, or a counter that went back (signature-counter.ts) all answer
//   INVALID_CREDENTIALS, alike; nothing is counted against the PIN lock.
// - The account must be live and not locked by the operator (storage/rules/sign-in-hold.ts).
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  type PublicKeyCredentialRequestOptionsJSON,
  verifyAuthenticationResponse,
} from '@simplewebauthn/server';
import type { Logger } from 'pino';
import type { SignInMethod, WebAuthnSettings } from '../../config/sign-in-settings.ts';
import type { Clock } from '../../providers/clock.ts';
import type { Random } from '../../providers/random.ts';
import type { Database, Queryable } from '../../storage/db.ts';
import { type PasskeyRow, passkeysRepo, transportsOf } from '../../storage/repositories/passkeys.ts';
import { assertMethodOn } from '../accounts/sign-in-methods.ts';
import type { CheckedProof, SignInProof } from '../accounts/sign-in-proof.ts';
import { DomainError } from '../errors.ts';
import { AMR } from '../sessions/authentication.ts';
import { CEREMONY_SECONDS, CeremonyChallenges } from './ceremony-challenges.ts';
import { counterWentBack, reportedCounter } from './signature-counter.ts';

export interface PasskeySignInDeps {
  db: Database;
  clock: Clock;
  random: Random;
  webauthn: WebAuthnSettings;
  signInMethods: ReadonlySet<SignInMethod>;
  logger: Logger;
}

const refused = () => new DomainError('INVALID_CREDENTIALS', 'the passkey did not sign in');

export class PasskeySignIn {
  readonly #challenges: CeremonyChallenges;
  constructor(private readonly d: PasskeySignInDeps) {
    this.#challenges = new CeremonyChallenges(d);
  }

  /** What the browser needs to ask for a passkey of this service: no account named. */
  async options(): Promise<PublicKeyCredentialRequestOptionsJSON> {
    assertMethodOn(this.d.signInMethods, 'passkey');
    return generateAuthenticationOptions({
      rpID: this.d.webauthn.rpId,
      allowCredentials: [],
      challenge: await this.#challenges.issue('authentication', null),
      timeout: CEREMONY_SECONDS * 1000,
      userVerification: 'required',
    });
  }

  /** The proof a passkey's answer gives: the account the passkey belongs to, checked by its signature. */
  proof(response: AuthenticationResponseJSON): SignInProof {
    return { method: 'passkey', check: async () => this.checked(await this.verified(response)) };
  }

  /** The account the passkey belongs to, and its use written down while that account is held. */
  private checked(passkey: PasskeyRow): CheckedProof {
    const spend = async () => ({
      account: { userId: passkey.user_id },
      amr: AMR.passkey(passkey.device_type),
    });
    const held = async (tx: Queryable) => {
      await passkeysRepo.used(tx, passkey.id, passkey.counter, this.d.clock.now());
    };
    return { spend, held, notThere: refused };
  }

  /** The passkey, with the counter it reported, when the answer holds; INVALID_CREDENTIALS otherwise. */
  private async verified(response: AuthenticationResponseJSON): Promise<PasskeyRow> {
    const challenge = await this.#challenges.use('authentication', null, response.response.clientDataJSON);
    if (!challenge) throw refused();
    const passkey = await passkeysRepo.byCredentialId(this.d.db, response.id);
    if (!passkey) throw refused();
    const { userHandle } = response.response;
    if (userHandle && Buffer.from(userHandle, 'base64url').toString() !== passkey.user_id) throw refused();
    const verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: this.d.webauthn.origins,
      expectedRPID: this.d.webauthn.rpId,
      // The counter is judged below, once the signature holds: an unsigned answer tells nothing of clones.
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(passkey.public_key),
        counter: 0,
        transports: transportsOf(passkey),
      },
      requireUserVerification: true,
    }).catch(() => undefined);
    if (!verification?.verified) throw refused();
    const reported = reportedCounter(response.response.authenticatorData);
    if (reported === undefined) throw refused();
    if (counterWentBack(passkey.counter, reported)) {
      this.d.logger.warn(
        { passkey: passkey.id, user: passkey.user_id, stored: passkey.counter, reported },
        "a passkey's signature counter went back: a cloned authenticator? The sign-in was refused",
      );
      throw refused();
    }
    return { ...passkey, counter: reported };
  }
}
