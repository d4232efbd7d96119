// Signing in with a passkey: the browser is asked for any passkey of this service (no account is named, so
// none is revealed), and the signed answer opens a session like a PIN's sign-in.
//
// Rules it enforces:
// - A sign-in's challenge is used once and lives 5 minutes; user verification is required.
// - An unknown passkey, a bad signature, a used or expired challenge, a missing user verification, an
//   answer for another origin or RP ID, or a counter that went back (signature-counter.ts) all answer
//   INVALID_CREDENTIALS, alike; nothing is counted against the PIN lock.
// - The account must be live and not locked by the operator (storage/rules/pinless-sign-in.ts).
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
import { type PasskeyRow, passkeysRepo } from '../../storage/repositories/passkeys.ts';
import type { UserRow } from '../../storage/repositories/users.ts';
import { holdAccountForSignIn } from '../../storage/rules/pinless-sign-in.ts';
import { lockedByOperator } from '../accounts/account-errors.ts';
import { parseDevice } from '../accounts/device.ts';
import { assertMethodOn } from '../accounts/sign-in-methods.ts';
import { DomainError } from '../errors.ts';
import type { AccessTokens } from '../sessions/access-tokens.ts';
import { AMR, authOfSession } from '../sessions/authentication.ts';
import { RestSignIn, type RestTokens } from '../sessions/rest-sign-in.ts';
import type { SessionService } from '../sessions/sessions.ts';
import { CEREMONY_SECONDS, CeremonyChallenges } from './ceremony-challenges.ts';
import { transportsOf } from './passkeys.ts';
import { counterWentBack, reportedCounter } from './signature-counter.ts';

export interface PasskeySignInDeps {
  db: Database;
  clock: Clock;
  random: Random;
  webauthn: WebAuthnSettings;
  signInMethods: ReadonlySet<SignInMethod>;
  sessions: SessionService;
  tokens: AccessTokens;
  firstPartyClientId: string;
  logger: Logger;
  /** told of each sign-in, for the metrics */
  onSignIn?: (method: 'passkey') => void;
}

const refused = () => new DomainError('INVALID_CREDENTIALS', 'the passkey did not sign in');

export class PasskeySignIn {
  readonly #challenges: CeremonyChallenges;
  readonly #rest: RestSignIn;
  constructor(private readonly d: PasskeySignInDeps) {
    this.#challenges = new CeremonyChallenges(d);
    this.#rest = new RestSignIn(d);
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

  /** The passkey that signed, checked; the account it belongs to answered with a new session's tokens. */
  async signIn(
    body: { response: AuthenticationResponseJSON; device?: unknown },
    ip: string,
  ): Promise<{ user: UserRow } & RestTokens> {
    assertMethodOn(this.d.signInMethods, 'passkey');
    const device = parseDevice(body.device);
    const passkey = await this.verified(body.response);
    const { session, refreshToken, account } = await this.d.db.transaction(async (tx) => {
      const account = await this.holder(tx, passkey);
      const amr = AMR.passkey(passkey.device_type);
      const opened = await this.d.sessions.open(tx, this.#rest.session(account.id, device, ip, amr));
      return { ...opened, account };
    });
    this.d.onSignIn?.('passkey');
    return {
      user: account,
      ...this.#rest.tokens(account.id, session.id, refreshToken, authOfSession(session)),
    };
  }

  /**
   * The account a passkey's answer proves and how, for the hosted pages, which go on to a single sign-on
   * rather than a session of their own.
   */
  async proved(response: AuthenticationResponseJSON): Promise<{ user: UserRow; amr: string[] }> {
    assertMethodOn(this.d.signInMethods, 'passkey');
    const passkey = await this.verified(response);
    const user = await this.d.db.transaction((tx) => this.holder(tx, passkey));
    this.d.onSignIn?.('passkey');
    return { user, amr: AMR.passkey(passkey.device_type) };
  }

  /** The live account the passkey belongs to, held while its use is written down. */
  private async holder(tx: Queryable, passkey: PasskeyRow): Promise<UserRow> {
    const held = await holdAccountForSignIn(tx, { userId: passkey.user_id });
    if (!held.held) throw held.refusal === 'locked_by_operator' ? lockedByOperator() : refused();
    await passkeysRepo.used(tx, passkey.id, passkey.counter, this.d.clock.now());
    return held.account;
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
