// The signed-in user's own account: profile, phone number, sessions, connected apps, identity verification,
// passkeys and recovery codes. Answers are the API's JSON as the API reference shows it.
import type {
  CodeChannel,
  ConnectedApps,
  DeletedAccount,
  HandleCheck,
  KycStart,
  KycStatus,
  Passkey,
  PasskeyRegistrationOptions,
  PasskeyRegistrationResponse,
  PinChanged,
  PublicProfile,
  RecoveryCodeStatus,
  RecoveryCodes,
  SessionList,
  User,
  UserPatch,
} from './api-types.js';
import type { Authorizer } from './authorizer.js';
import type { SessionKeeper } from './session-keeper.js';
import type { Transport } from './transport.js';

/** The phrase the API asks for before it deletes an account. */
const DELETE_CONFIRMATION = 'DELETE MY ACCOUNT';

/** The account's own profile and phone number, kept in the session as they change. */
export function userMethods(transport: Transport, keeper: SessionKeeper, authorizer: Authorizer) {
  /** Keeps the account's new fields in the session, and tells the listeners when they changed. */
  const updated = async (user: User): Promise<User> => {
    const session = await keeper.get();
    if (session && session.user.id === user.id && JSON.stringify(session.user) !== JSON.stringify(user))
      await keeper.save({ ...session, user }, 'USER_UPDATED');
    return user;
  };

  return {
    me: async (): Promise<User> => updated(await authorizer.call('get', '/users/me')),
    update: async (patch: UserPatch): Promise<User> =>
      updated(await authorizer.call('patch', '/users/me', { body: patch })),
    byHandle: (handle: string): Promise<PublicProfile> =>
      transport.call('get', '/users/@{handle}', { params: { handle: handle.replace(/^@/, '') } }),
    checkHandle: (handle: string): Promise<HandleCheck> =>
      transport.call('get', '/users/handle/check', { query: { handle } }),
    /** Sends a code to the new number; `confirmPhone` moves the account to it. */
    async changePhone(input: {
      phone: string;
      channel?: CodeChannel;
      challengeSolution?: string;
      captchaToken?: string;
    }) {
      const body = {
        phone: input.phone,
        channel: input.channel,
        challenge_solution: input.challengeSolution,
        captcha_token: input.captchaToken,
      };
      const sent = await authorizer.call('post', '/users/me/phone', { body });
      return { expiresIn: sent.expires_in, channel: sent.channel, message: sent.message };
    },
    confirmPhone: async (input: { phone: string; code: string; pin: string }): Promise<User> =>
      updated(await authorizer.call('post', '/users/me/phone/confirm', { body: input })),
    /** Changes the PIN, giving the current one: every other session of the account ends, this one stays. */
    changePin: (input: { currentPin: string; newPin: string }): Promise<PinChanged> =>
      authorizer.call('post', '/users/me/pin', {
        body: { current_pin: input.currentPin, new_pin: input.newPin },
      }),
    /** Deletes the account (ask the person to confirm first) and ends the session here. */
    async delete(input: { pin: string }): Promise<DeletedAccount> {
      const body = { pin: input.pin, confirmation: DELETE_CONFIRMATION };
      const deleted = await authorizer.call('delete', '/users/me', { body });
      await keeper.end('signed_out');
      return deleted;
    },
  };
}

/** The account's sessions, connected apps, identity verification, passkeys and recovery codes. */
export function accountMethods(authorizer: Authorizer) {
  const sessions = {
    list: (page: { limit?: number; offset?: number } = {}): Promise<SessionList> =>
      authorizer.call('get', '/sessions', {
        query: { limit: page.limit?.toString(), offset: page.offset?.toString() },
      }),
    /** Ends one of the user's sessions (this one too: the client then signs out at its next call). */
    revoke: (id: string) => authorizer.call('delete', '/sessions/{id}', { params: { id } }),
  };

  const apps = {
    list: (): Promise<ConnectedApps> => authorizer.call('get', '/users/me/apps'),
    revoke: (clientId: string) =>
      authorizer.call('delete', '/users/me/apps/{client_id}', { params: { client_id: clientId } }),
  };

  const kyc = {
    status: (): Promise<KycStatus> => authorizer.call('get', '/kyc/status'),
    initiate: (): Promise<KycStart> => authorizer.call('post', '/kyc/initiate'),
  };

  const passkeys = {
    list: () => authorizer.call('get', '/passkeys'),
    /** The options to give the browser's WebAuthn (e.g. @simplewebauthn/browser's startRegistration). */
    registrationOptions: (): Promise<PasskeyRegistrationOptions> =>
      authorizer.call('post', '/passkeys/registration/options'),
    /** Keeps the passkey the browser created with those options. */
    register: (response: PasskeyRegistrationResponse): Promise<Passkey> =>
      authorizer.call('post', '/passkeys/registration', { body: { response } }),
    rename: (id: string, name: string): Promise<Passkey> =>
      authorizer.call('patch', '/passkeys/{id}', { params: { id }, body: { name } }),
    remove: (id: string) => authorizer.call('delete', '/passkeys/{id}', { params: { id } }),
  };

  const recoveryCodes = {
    /** A new set of ten codes, shown once; it replaces the set before. */
    create: (input: { pin?: string } = {}): Promise<RecoveryCodes> =>
      authorizer.call('post', '/users/me/recovery-codes', { body: input }),
    status: (): Promise<RecoveryCodeStatus> => authorizer.call('get', '/users/me/recovery-codes'),
  };

  return { sessions, apps, kyc, passkeys, recoveryCodes };
}
