// The request and answer types of Callsign's API, taken from the generated document types (generated/openapi.ts)
// by path and method, so a change of the API shows here as a type error rather than as a surprise at run time.
import type { paths } from './generated/openapi.js';

export type Path = keyof paths;
export type Method = 'get' | 'post' | 'patch' | 'delete';

/** The operation at a path and method. */
type Operation<P extends Path, M extends Method> = M extends keyof paths[P] ? paths[P][M] : never;

type JsonOf<C> = C extends { content: { 'application/json': infer J } } ? J : never;

/** The JSON body an operation takes (never where it takes none). */
export type BodyOf<P extends Path, M extends Method> = Operation<P, M> extends { requestBody?: infer R }
  ? JsonOf<NonNullable<R>>
  : never;

/** The query parameters an operation takes. */
export type QueryOf<P extends Path, M extends Method> = Operation<P, M> extends {
  parameters: { query?: infer Q };
}
  ? NonNullable<Q>
  : never;

/** The path parameters an operation takes. */
export type PathParamsOf<P extends Path, M extends Method> = Operation<P, M> extends {
  parameters: { path: infer Q };
}
  ? Q
  : never;

type SuccessOf<P extends Path, M extends Method> = Operation<P, M> extends { responses: { 200: infer R } }
  ? JsonOf<R>
  : never;

/** What a success carries: the REST envelope's `data`, or /api/v1's plain JSON body. */
export type DataOf<P extends Path, M extends Method> = SuccessOf<P, M> extends {
  success: true;
  data: infer D;
}
  ? D
  : SuccessOf<P, M>;

/** The account as its holder sees it (`GET /users/me`). */
export type User = DataOf<'/users/me', 'get'>;
/** The changes `PATCH /users/me` takes. */
export type UserPatch = BodyOf<'/users/me', 'patch'>;
/** The answer to deleting the account: `{deleted: true, hard_delete_at}`. */
export type DeletedAccount = DataOf<'/users/me', 'delete'>;
export type PinChanged = DataOf<'/users/me/pin', 'post'>;
/** Another account's public profile (`GET /users/@{handle}`). */
export type PublicProfile = DataOf<'/users/@{handle}', 'get'>;
/** Whether a handle is free, and why not. */
export type HandleCheck = DataOf<'/users/handle/check', 'get'>;
/** A page of the caller's sessions. */
export type SessionList = DataOf<'/sessions', 'get'>;
/** The applications the caller allowed. */
export type ConnectedApps = DataOf<'/users/me/apps', 'get'>;
/** The caller's identity verification. */
export type KycStatus = DataOf<'/kyc/status', 'get'>;
/** A one-time link to the identity verification page. */
export type KycStart = DataOf<'/kyc/initiate', 'post'>;
/** One of the caller's passkeys. */
export type Passkey = DataOf<'/passkeys/{id}', 'patch'>;
/** The options a browser creates a passkey with (give them to WebAuthn, e.g. @simplewebauthn/browser). */
export type PasskeyRegistrationOptions = DataOf<'/passkeys/registration/options', 'post'>;
/** What the browser answered when it created the passkey. */
export type PasskeyRegistrationResponse = BodyOf<'/passkeys/registration', 'post'>['response'];
/** The options a browser signs in with a passkey with. */
export type PasskeySignInOptions = DataOf<'/auth/passkey/options', 'post'>;
/** What the browser answered when it signed with the passkey. */
export type PasskeySignInResponse = BodyOf<'/auth/passkey/verify', 'post'>['response'];
/** A new set of recovery codes, to show once. */
export type RecoveryCodes = DataOf<'/users/me/recovery-codes', 'post'>;
/** How many recovery codes are left. */
export type RecoveryCodeStatus = DataOf<'/users/me/recovery-codes', 'get'>;
/** The sign-in a session records about its device. */
export type Device = NonNullable<BodyOf<'/auth/signin', 'post'>['device']>;
/** The purposes a code is sent for. */
export type CodePurpose = BodyOf<'/auth/otp/send', 'post'>['purpose'];
/** The channels a code goes by. */
export type CodeChannel = NonNullable<BodyOf<'/auth/otp/send', 'post'>['channel']>;
/** A proof-of-work challenge, or the hosted CAPTCHA to show instead. */
export type Challenge = DataOf<'/auth/challenge', 'get'>;
/** A user as a server with an API key reads it (`GET /api/v1/users/{id}`). */
export type ServerUser = DataOf<'/api/v1/users/{id}', 'get'>;
/** One user of a search by phone. */
export type ServerUserMatch = DataOf<'/api/v1/users', 'get'>['data'][number];
