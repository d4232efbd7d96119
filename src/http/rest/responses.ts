// The REST surface's answers, as its routes document them: the envelope around each resource the spec names.
import { type TSchema, Type } from 'typebox';
import { REST_STATUS } from '../errors/rest-statuses.ts';
import { dateTime, nullable } from '../openapi-types.ts';

/** Spec "Errors": `{success: false, error: {code, message, details}}`. */
export const restErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.Object({
      code: Type.String({ description: Object.keys(REST_STATUS).join(', ') }),
      message: Type.String(),
      details: Type.Record(Type.String(), Type.Unknown(), {
        description: '`field` names the field at fault; a 429 carries `retry_after`',
      }),
    }),
  },
  {
    description: 'the error envelope',
    examples: [
      {
        success: false,
        error: {
          code: 'INVALID_PHONE',
          message: 'phone must be a valid number',
          details: { field: 'phone' },
        },
      },
    ],
  },
);

/** The answers of a REST route: its data in the envelope, or the error envelope. */
export const restAnswer = <T extends TSchema>(data: T, description: string) => ({
  200: Type.Object({ success: Type.Literal(true), data }, { description }),
  '4xx': restErrorEnvelope,
  '5xx': restErrorEnvelope,
});

const kycStatus = Type.String({ description: 'none, pending, verified or rejected' });

/** Spec "User (REST surface)": every field present, null when never set. */
export const RestUser = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    phone: Type.String({ description: 'E.164' }),
    phone_verified: Type.Boolean(),
    handle: Type.String(),
    name: nullable(Type.String()),
    avatar_url: nullable(Type.String()),
    bio: nullable(Type.String()),
    country: nullable(Type.String({ description: 'ISO 3166-1 alpha-2, from the phone number' })),
    language: nullable(Type.String({ description: 'BCP 47' })),
    kyc_status: kycStatus,
    kyc_country: nullable(Type.String()),
    kyc_verified_at: nullable(dateTime()),
    created_at: dateTime(),
    updated_at: dateTime(),
  },
  {
    examples: [
      {
        id: '0b0e7c2a-5d7e-4a53-9d8e-3c1f2a4b5c6d',
        phone: '+14155550123',
        phone_verified: true,
        handle: 'ada',
        name: 'Ada',
        avatar_url: null,
        bio: null,
        country: 'US',
        language: null,
        kyc_status: 'none',
        kyc_country: null,
        kyc_verified_at: null,
        created_at: '2026-11-26T09:00:00.000Z',
        updated_at: '2026-11-26T09:00:00.000Z',
      },
    ],
  },
);

/** Spec "Public profile": never phone, country or language. */
export const PublicProfile = Type.Object({
  id: Type.String({ format: 'uuid' }),
  handle: Type.String(),
  name: nullable(Type.String()),
  avatar_url: nullable(Type.String()),
  bio: nullable(Type.String()),
  kyc_status: kycStatus,
  created_at: dateTime(),
});

/** A REST session's tokens: the access token lives 900 s, the refresh token rotates on every use. */
export const RestTokens = Type.Object(
  {
    access_token: Type.String({ description: 'an RS256 JWT' }),
    refresh_token: Type.String(),
    expires_in: Type.Integer({ description: 'seconds the access token lives' }),
  },
  { examples: [{ access_token: 'eyJhbGciOiJSUzI1NiIs...', refresh_token: 'cs1.AbC...', expires_in: 900 }] },
);

export const SignedIn = <T extends TSchema>(user: T) => Type.Object({ user, ...RestTokens.properties });

/** What a PIN reset removed besides the sessions: the ways in made under the old PIN. */
export const RemovedByReset = Type.Object({
  passkeys: Type.Integer({ description: 'passkeys added since the PIN was last set, now removed' }),
  recovery_codes: Type.Boolean({
    description:
      'whether the recovery codes were ended (a set made since the PIN was last set, or the one used)',
  }),
});

/** A PIN reset's answer: signed in, and what else went. */
export const AfterPinReset = Type.Object({
  user: RestUser,
  ...RestTokens.properties,
  removed: RemovedByReset,
});

/** Spec "Session". */
export const RestSession = Type.Object({
  id: Type.String({ format: 'uuid' }),
  device_name: nullable(Type.String()),
  platform: Type.String({ description: 'ios, android, web, desktop or other' }),
  ip_address: nullable(Type.String({ description: 'masked' })),
  last_used_at: dateTime(),
  created_at: dateTime(),
  current: Type.Boolean({ description: 'the session of the token making the request' }),
});

export const ConnectedApp = Type.Object({
  client_id: Type.String(),
  client_name: Type.String(),
  scopes: Type.Array(Type.String()),
  granted_at: dateTime(),
  active_sessions: Type.Integer(),
  last_used_at: nullable(dateTime()),
});

export const CodeSent = Type.Object(
  {
    expires_in: Type.Integer({ description: 'seconds the code lives' }),
    message: Type.String(),
    channel: Type.Enum(['sms', 'whatsapp', 'voice'], { description: 'the channel the code went by' }),
  },
  { examples: [{ expires_in: 300, message: 'Verification code sent to +1415***0123', channel: 'sms' }] },
);

export const Revoked = Type.Object({ revoked: Type.Literal(true) });

/**
 * ALTCHA's challenge (v1): solve it and send the payload back as `challenge_solution`. Where the service uses
 * a hosted CAPTCHA instead, the widget to show (its token goes back as `captcha_token`).
 */
export const ChallengeSchema = Type.Union([
  Type.Object({
    algorithm: Type.String({ description: 'SHA-256' }),
    challenge: Type.String(),
    maxnumber: Type.Optional(Type.Integer()),
    salt: Type.String(),
    signature: Type.String(),
  }),
  Type.Object({
    provider: Type.Enum(['turnstile', 'hcaptcha']),
    site_key: Type.String({ description: 'the public key the widget is drawn with' }),
  }),
]);

/** The KYC status record of an account. */
export const KycStatusRecord = Type.Object({
  status: Type.String({ description: 'none, pending, verified or rejected' }),
  verified_at: nullable(dateTime()),
  level: nullable(Type.String({ description: 'basic or full' })),
  documents: Type.Array(Type.String()),
});
