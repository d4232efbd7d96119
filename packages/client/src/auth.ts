// Signing in and out: codes, sign-up, PIN, passkey and recovery-code sign-ins. Each sign-in stores its session.
import type {
  CodeChannel,
  CodePurpose,
  DataOf,
  Device,
  PasskeySignInOptions,
  PasskeySignInResponse,
  User,
} from './api-types.js';
import type { Authorizer } from './authorizer.js';
import type { Session } from './session.js';
import type { SessionKeeper } from './session-keeper.js';
import type { Transport } from './transport.js';

export interface SendCodeInput {
  /** E.164, e.g. +14155550100 */
  phone: string;
  purpose: CodePurpose;
  channel?: CodeChannel;
  /** the language of the message, a BCP 47 tag */
  language?: string;
  /** the answer to a CHALLENGE_REQUIRED error's challenge (`client.challenges.solve`) */
  challengeSolution?: string;
  /** the token of the CAPTCHA widget, where the service uses a hosted CAPTCHA */
  captchaToken?: string;
  /**
   * the app's attestation of this send, over `challenge|phone|purpose` (see `attestationBinding`): a Play
   * Integrity token, or an App Attest assertion. Where it holds, the send needs no challenge.
   */
  attestation?: Attestation;
}

/** An app's attestation, as `/auth/otp/send` takes it. */
export type Attestation =
  | { platform: 'android'; package?: string; challenge: string; token: string }
  | { platform: 'ios'; challenge: string; keyId: string; assertion: string };

/** What an app's attestation of a send is made over: Play Integrity's request hash is its hex SHA-256. */
export const attestationBinding = (challenge: string, phone: string, purpose: CodePurpose) =>
  `${challenge}|${phone}|${purpose}`;

const attestationBody = (a: Attestation | undefined) =>
  a === undefined
    ? undefined
    : a.platform === 'android'
      ? a
      : { platform: a.platform, challenge: a.challenge, key_id: a.keyId, assertion: a.assertion };

export interface SentCode {
  /** seconds the code lives */
  expiresIn: number;
  channel: CodeChannel;
  message: string;
}

export type ResetPinInput =
  | { tempToken: string; pin: string }
  | { phone: string; recoveryCode: string; pin: string };

type Tokens = DataOf<'/auth/signin', 'post'>;

/** A code send's body, as the API names its fields: also a silent check's start. */
export const sendBody = (input: SendCodeInput) => ({
  phone: input.phone,
  purpose: input.purpose,
  channel: input.channel,
  language: input.language,
  challenge_solution: input.challengeSolution,
  captcha_token: input.captchaToken,
  attestation: attestationBody(input.attestation),
});

/** The ways to sign in, and the codes they start with. */
export function authMethods(transport: Transport, keeper: SessionKeeper, device: Device | undefined) {
  const keep = (tokens: Omit<Tokens, 'user'>, user: User): Promise<Session> =>
    keeper.save(
      {
        user,
        accessToken: tokens.access_token,
        refreshToken: tokens.refresh_token,
        expiresAt: Date.now() + tokens.expires_in * 1000,
      },
      'SIGNED_IN',
    );
  const signedIn = (tokens: Tokens) => keep(tokens, tokens.user);

  return {
    /** A challenge for an app's attestation of its next send (single use, 120 seconds). */
    async attestationChallenge(): Promise<{ challenge: string; expiresIn: number }> {
      const asked = await transport.call('get', '/auth/attestation/challenge', {});
      return { challenge: asked.challenge, expiresIn: asked.expires_in };
    },

    /** Registers an iOS app's App Attest key once, from its attestation over a challenge. */
    async registerAppleKey(input: { keyId: string; attestation: string; challenge: string }) {
      const body = { key_id: input.keyId, attestation: input.attestation, challenge: input.challenge };
      const kept = await transport.call('post', '/auth/attestation/apple/keys', { body });
      return { keyId: kept.key_id, appId: kept.app_id };
    },

    async sendCode(input: SendCodeInput): Promise<SentCode> {
      const sent = await transport.call('post', '/auth/otp/send', { body: sendBody(input) });
      return { expiresIn: sent.expires_in, channel: sent.channel, message: sent.message };
    },

    /** Checks a code; the temp token it answers is for the next step of the same purpose. */
    async verifyCode(input: { phone: string; code: string; purpose: CodePurpose }) {
      const verified = await transport.call('post', '/auth/otp/verify', { body: input });
      return { tempToken: verified.temp_token, expiresIn: verified.expires_in };
    },

    /** Creates the account of a verified phone and signs it in. */
    async signUp(input: { tempToken: string; pin: string; handle: string; name?: string }): Promise<Session> {
      const { tempToken, ...rest } = input;
      const created = await transport.call('post', '/auth/signup', {
        body: { temp_token: tempToken, ...rest, device },
      });
      // The sign-up answers the new account's first fields; the session holds the whole account.
      const user = await transport.call('get', '/users/me', { token: created.access_token });
      return keep(created, user);
    },

    signIn: async (input: { phone: string; pin: string }) =>
      signedIn(await transport.call('post', '/auth/signin', { body: { ...input, device } })),

    /** Signs in with a code verified for purpose `signin`, where the service offers it. */
    signInWithCode: async (input: { tempToken: string }) =>
      signedIn(
        await transport.call('post', '/auth/signin', { body: { temp_token: input.tempToken, device } }),
      ),

    /** Sets a new PIN with a code verified for purpose `pin_reset`, or with a recovery code; signs in. */
    async resetPin(input: ResetPinInput): Promise<Session> {
      const body =
        'tempToken' in input
          ? { temp_token: input.tempToken, pin: input.pin, device }
          : { phone: input.phone, recovery_code: input.recoveryCode, pin: input.pin, device };
      return signedIn(await transport.call('post', '/auth/pin/reset', { body }));
    },

    /** The options to give the browser's WebAuthn (e.g. @simplewebauthn/browser's startAuthentication). */
    passkeyOptions: (): Promise<PasskeySignInOptions> =>
      transport.call('post', '/auth/passkey/options', { body: {} }),

    /** Signs in with what the browser answered for those options. */
    signInWithPasskey: async (response: PasskeySignInResponse) =>
      signedIn(await transport.call('post', '/auth/passkey/verify', { body: { response, device } })),
  };
}

/** The session as the app reads it, and its end. */
export function sessionMethods(transport: Transport, keeper: SessionKeeper, authorizer: Authorizer) {
  return {
    /** Ends the session on the server and here; here it ends even when the server cannot be reached. */
    async signOut(): Promise<void> {
      try {
        const token = await authorizer.accessToken();
        const session = await keeper.get();
        if (token && session)
          await transport.call('post', '/auth/logout', {
            token,
            body: { refresh_token: session.refreshToken },
          });
      } finally {
        await keeper.end('signed_out');
      }
    },

    getSession: (): Promise<Session | null> => keeper.get().then((s) => s ?? null),

    /** The access token for the app's own backend, refreshed first when it expires within 60 s. */
    getAccessToken: (): Promise<string | null> => authorizer.accessToken().then((t) => t ?? null),

    /**
     * Refreshes the session now, whatever its access token's time left: one refresh in flight at a time, shared
     * with one already running (and with the other tabs). Null when no one is signed in, or when the refresh
     * token was refused (the session then ends).
     */
    async refresh(): Promise<Session | null> {
      const session = (await keeper.get()) ?? (await keeper.reload());
      if (!session) return null;
      return (await authorizer.refresh(session, 'refresh_failed')) ?? null;
    },

    /** Calls `listener` on SIGNED_IN, TOKEN_REFRESHED, USER_UPDATED and SIGNED_OUT; answers the unsubscribe. */
    onChange: (listener: Parameters<SessionKeeper['listen']>[0]) => keeper.listen(listener),
  };
}
