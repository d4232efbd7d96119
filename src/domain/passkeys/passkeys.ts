// The passkeys room: a person's passkeys (WebAuthn credentials on their devices): registering one, listing,
// naming and removing them, and signing in with one (passkey-sign-in.ts). It owns its ceremonies' challenges
// (ceremony-challenges.ts); the session a sign-in opens is the sessions room's.
//
// Rules it enforces:
// - A passkey is registered only where SIGNIN_METHODS has `passkey` (else FORBIDDEN `method_disabled`): one
//   kept while they are off would start to sign in the day they are turned on, unseen until then.
// - Registering and removing a passkey need a sign-in at most 10 minutes old (sessions/recent-sign-in.ts).
// - A registration counts only with a challenge given to this account in the last 5 minutes and not used
//   before, from an allowed origin, for this service's RP ID, with the user verified; anything else answers
//   INVALID_REQUEST naming `response`, and nothing is stored.
// - A passkey is a discoverable credential that verifies its user; the account's own passkeys are excluded,
//   so one authenticator is not registered twice. At most 20 passkeys an account (storage/rules/passkey-register.ts).
// - Another account's passkey is NOT_FOUND.
import {
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { SignInMethod, WebAuthnSettings } from '../../config/sign-in-settings.ts';
import type { Clock } from '../../providers/clock.ts';
import type { Random } from '../../providers/random.ts';
import { type Database, uniqueViolation } from '../../storage/db.ts';
import { type PasskeyRow, passkeysRepo, transportsOf } from '../../storage/repositories/passkeys.ts';
import { usersRepo } from '../../storage/repositories/users.ts';
import { keepPasskey, PASSKEYS_PER_ACCOUNT } from '../../storage/rules/passkey-register.ts';
import type { AccountNotices } from '../accounts/account-notices.ts';
import { assertMethodOn } from '../accounts/sign-in-methods.ts';
import { DomainError, fieldError, noSuchUser } from '../errors.ts';
import { isUuid } from '../ids.ts';
import { maskPhone } from '../phone.ts';
import { assertRecentSignIn } from '../sessions/recent-sign-in.ts';
import type { SessionService } from '../sessions/sessions.ts';
import type { Events } from '../webhooks/events.ts';
import { CEREMONY_SECONDS, CeremonyChallenges } from './ceremony-challenges.ts';
import { assertCredentialIdLength } from './credential-id.ts';
import { passkeyNameOf } from './passkey-names.ts';

export interface PasskeyDeps {
  db: Database;
  clock: Clock;
  random: Random;
  webauthn: WebAuthnSettings;
  sessions: SessionService;
  events: Events;
  /** tells the account's phone of a new passkey */
  notices: AccountNotices;
  signInMethods: ReadonlySet<SignInMethod>;
}

/**
 * Who asks: the account, and the session its token belongs to, or (on the hosted pages, which have no session
 * of their own) when it signed in.
 */
export type PasskeyCaller = { userId: string; sessionId: string } | { userId: string; authTime: Date };

const NAME_MAX = 64;

/** A passkey's name: 1-64 characters once trimmed. */
export function parsePasskeyName(input: string): string {
  const name = input.trim();
  if (name.length < 1 || name.length > NAME_MAX)
    throw fieldError('INVALID_REQUEST', 'name', `name must be 1-${NAME_MAX} characters`);
  return name;
}

const invalidResponse = (why: string) =>
  fieldError('INVALID_REQUEST', 'response', `the passkey could not be registered: ${why}`);

export class PasskeyService {
  readonly #challenges: CeremonyChallenges;
  constructor(private readonly d: PasskeyDeps) {
    this.#challenges = new CeremonyChallenges(d);
  }

  /** What the browser needs to create a passkey for the caller's account. */
  async registrationOptions(caller: PasskeyCaller): Promise<PublicKeyCredentialCreationOptionsJSON> {
    assertMethodOn(this.d.signInMethods, 'passkey');
    await this.assertRecent(caller);
    const user = await usersRepo.findLiveById(this.d.db, caller.userId);
    if (!user) throw noSuchUser();
    const own = await passkeysRepo.ofUser(this.d.db, user.id);
    return generateRegistrationOptions({
      rpName: this.d.webauthn.rpName,
      rpID: this.d.webauthn.rpId,
      userID: new Uint8Array(Buffer.from(user.id)),
      userName: maskPhone(user.phone),
      userDisplayName: user.name ?? user.handle,
      challenge: await this.#challenges.issue('registration', user.id),
      timeout: CEREMONY_SECONDS * 1000,
      attestationType: 'none',
      excludeCredentials: own.map((p) => ({ id: p.credential_id, transports: transportsOf(p) })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
  }

  /** Keeps the passkey the browser created, if its answer holds. */
  async register(
    caller: PasskeyCaller,
    body: { response: RegistrationResponseJSON; name?: string },
    userAgent?: string,
  ): Promise<PasskeyRow> {
    assertMethodOn(this.d.signInMethods, 'passkey');
    const named = body.name === undefined ? undefined : parsePasskeyName(body.name);
    const signedInAt = await this.assertRecent(caller);
    assertCredentialIdLength(body.response.id, body.response.rawId);
    const { response } = body;
    const challenge = await this.#challenges.use(
      'registration',
      caller.userId,
      response.response.clientDataJSON,
    );
    if (!challenge) throw invalidResponse('its challenge is unknown, used or expired');
    const verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: this.d.webauthn.origins,
      expectedRPID: this.d.webauthn.rpId,
      requireUserVerification: true,
    }).catch((err: unknown) => {
      throw invalidResponse(err instanceof Error ? err.message : 'it does not verify');
    });
    if (!verification.verified) throw invalidResponse('it does not verify');
    const info = verification.registrationInfo;
    const name = named ?? passkeyNameOf({ aaguid: info.aaguid, userAgent });
    const passkey = {
      id: this.d.random.uuid(),
      user_id: caller.userId,
      credential_id: info.credential.id,
      public_key: info.credential.publicKey,
      counter: info.credential.counter,
      device_type: info.credentialDeviceType === 'multiDevice' ? 'multi_device' : 'single_device',
      backed_up: info.credentialBackedUp,
      transports: info.credential.transports ?? [],
      name,
      created_at: this.d.clock.now(),
      session_id: 'sessionId' in caller ? caller.sessionId : null,
    } as const;
    const kept = await this.d.db
      .transaction(async (tx) => {
        const kept = await keepPasskey(tx, { ...passkey, transports: [...passkey.transports] }, signedInAt);
        if (kept.kept)
          await this.d.events.emit(tx, 'passkey.created', {
            user_id: passkey.user_id,
            passkey_id: passkey.id,
            created_at: passkey.created_at.toISOString(),
          });
        return kept;
      })
      .catch((err: unknown) => {
        if (uniqueViolation(err)) return { kept: false, refusal: 'credential_known' } as const;
        throw err;
      });
    if (!kept.kept)
      switch (kept.refusal) {
        case 'no_account':
          throw noSuchUser();
        case 'credential_known':
          throw invalidResponse('this passkey is registered already');
        case 'signed_in_before_pin_reset':
          throw new DomainError('FORBIDDEN', 'the PIN was reset after this sign-in: sign in again', {
            reason: 'signed_in_before_pin_reset',
          });
        case 'too_many':
          throw new DomainError('FORBIDDEN', `an account keeps at most ${PASSKEYS_PER_ACCOUNT} passkeys`, {
            reason: 'passkey_limit',
            limit: PASSKEYS_PER_ACCOUNT,
          });
      }
    const account = await usersRepo.findLiveById(this.d.db, caller.userId);
    if (account) await this.d.notices.tell(account, 'phone.passkey_added');
    return { ...passkey, transports: [...passkey.transports], last_used_at: null };
  }

  list(userId: string): Promise<PasskeyRow[]> {
    return passkeysRepo.ofUser(this.d.db, userId);
  }

  async rename(userId: string, id: string, nameInput: string): Promise<PasskeyRow> {
    const name = parsePasskeyName(nameInput);
    const renamed = isUuid(id) ? await passkeysRepo.rename(this.d.db, userId, id, name) : undefined;
    if (!renamed) throw notFound();
    return renamed;
  }

  /** The owner's removal, once their sign-in is recent. */
  async remove(caller: PasskeyCaller, id: string): Promise<void> {
    await this.assertRecent(caller);
    await this.removeOf(caller.userId, id);
  }

  /** An account's passkeys, for an operator: NOT_FOUND for an account that is not live. */
  async ofAccount(userId: string): Promise<PasskeyRow[]> {
    if (!isUuid(userId) || !(await usersRepo.findLiveById(this.d.db, userId))) throw noSuchUser();
    return passkeysRepo.ofUser(this.d.db, userId);
  }

  /** Removes one of the account's passkeys, with its event (an operator's removal needs no sign-in). */
  async removeOf(userId: string, id: string): Promise<void> {
    if (!isUuid(id) || !isUuid(userId)) throw notFound();
    const removed = await this.d.db.transaction(async (tx) => {
      if (!(await passkeysRepo.remove(tx, userId, id))) return false;
      await this.d.events.emit(tx, 'passkey.deleted', {
        user_id: userId,
        passkey_id: id,
        deleted_at: this.d.clock.now().toISOString(),
      });
      return true;
    });
    if (!removed) throw notFound();
  }

  /** When the caller signed in, once that is recent enough. */
  private async assertRecent(caller: PasskeyCaller): Promise<Date> {
    const authTime =
      'authTime' in caller ? caller.authTime : (await this.d.sessions.authOf(caller.sessionId))?.authTime;
    assertRecentSignIn(authTime, this.d.clock.now());
    return authTime as Date;
  }
}

const notFound = () => new DomainError('NOT_FOUND', 'no such passkey');
