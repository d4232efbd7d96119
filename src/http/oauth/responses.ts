// The OAuth surface's answers, as its routes document them.
import { Type } from 'typebox';
import { errorBody } from '../openapi-types.ts';

const oauthError = errorBody(
  'RFC 6749 §5.2 or RFC 6750 §3.1: invalid_request, invalid_client, invalid_grant, ...',
);

/** An OAuth route's answers: its own, then RFC 6749 §5.2's error body. */
export const oauthAnswer = <T extends object>(answer: T, status: 200 | 201 | 204 = 200) => ({
  [status]: answer,
  '4xx': oauthError,
  '5xx': oauthError,
});

/** RFC 6749 §5.1, with OpenID Connect's ID token. */
export const TokenResponse = Type.Object(
  {
    access_token: Type.String({ description: 'a JWT (ACCESS_TOKEN_ALG, RS256 unless set), for 1 hour' }),
    token_type: Type.Union([Type.Literal('Bearer'), Type.Literal('DPoP')], {
      description: 'DPoP when the request sent a DPoP proof: the token is bound to its key',
    }),
    expires_in: Type.Integer(),
    refresh_token: Type.Optional(
      Type.String({ description: 'rotates on every use; for clients that may refresh' }),
    ),
    scope: Type.String(),
    id_token: Type.Optional(Type.String({ description: 'with the openid scope' })),
  },
  { description: 'the tokens' },
);

/** RFC 7662 §2.2: `active`, and for an active token what it says. */
export const Introspection = Type.Object(
  {
    active: Type.Boolean(),
    client_id: Type.Optional(Type.String()),
    sub: Type.Optional(Type.String()),
    scope: Type.Optional(Type.String()),
    sid: Type.Optional(Type.String()),
    token_type: Type.Optional(Type.String()),
    exp: Type.Optional(Type.Integer()),
    iat: Type.Optional(Type.Integer()),
    auth_time: Type.Optional(
      Type.Integer({ description: "when the session's sign-in was proved (Unix seconds)" }),
    ),
    amr: Type.Optional(Type.Array(Type.String(), { description: 'how it was proved (RFC 8176)' })),
    acr: Type.Optional(Type.String({ description: 'urn:callsign:acr:1fa or urn:callsign:acr:phr' })),
    cnf: Type.Optional(
      Type.Object({ jkt: Type.String() }, { description: 'RFC 9449: the DPoP key the token is bound to' }),
    ),
  },
  { additionalProperties: true, description: 'whether the token is active, and if so what it says' },
);

/** OpenID Connect Core §5.3.2: the claims of the token's scopes; a claim without a value is left out. */
export const UserinfoClaims = Type.Object(
  {
    sub: Type.String({ description: 'the user id' }),
    name: Type.Optional(Type.String({ description: 'profile' })),
    picture: Type.Optional(Type.String({ description: 'profile' })),
    updated_at: Type.Optional(Type.Integer({ description: 'profile: Unix seconds' })),
    phone: Type.Optional(Type.String({ description: 'phone: E.164' })),
    phone_verified: Type.Optional(Type.Boolean({ description: 'phone' })),
    phone_number: Type.Optional(Type.String({ description: 'phone: E.164 (OIDC Core §5.1)' })),
    phone_number_verified: Type.Optional(Type.Boolean({ description: 'phone' })),
    email: Type.Optional(Type.String({ description: 'email' })),
    email_verified: Type.Optional(Type.Boolean({ description: 'email' })),
    kyc_status: Type.Optional(Type.String({ description: 'kyc: NONE, PENDING, VERIFIED or REJECTED' })),
    kyc_country: Type.Optional(Type.String({ description: 'kyc: ISO 3166-1 alpha-2' })),
  },
  {
    additionalProperties: false,
    description: 'sub, and the claims of the granted scopes (profile, phone, email, kyc)',
    examples: [
      {
        sub: '0b6f6c2e-5f57-4b8a-9a43-2f4b1c1d9e10',
        phone_number: '+14155550123',
        phone_number_verified: true,
      },
    ],
  },
);

/** RFC 7009 §2.2: an empty object. */
export const Revoked = Type.Object(
  {},
  { additionalProperties: false, description: 'the token and its session are revoked (or were unknown)' },
);

/** RFC 7517: the public keys that verify our tokens, by `kid`. */
export const Jwks = Type.Object({
  keys: Type.Array(
    Type.Object(
      {
        kty: Type.String({ description: 'RSA (RS256, PS256), EC (ES256) or OKP (EdDSA)' }),
        kid: Type.String(),
        use: Type.Optional(Type.String()),
        alg: Type.String({ description: 'the one algorithm the key verifies' }),
        n: Type.Optional(Type.String()),
        e: Type.Optional(Type.String()),
        crv: Type.Optional(Type.String({ description: 'P-256 or Ed25519' })),
        x: Type.Optional(Type.String()),
        y: Type.Optional(Type.String()),
      },
      { additionalProperties: true },
    ),
  ),
});

/** OpenID Connect Discovery 1.0 §3 and RFC 8414 §2: the provider's metadata. */
export const ProviderMetadata = Type.Object(
  {
    issuer: Type.String(),
    authorization_endpoint: Type.String(),
    token_endpoint: Type.String(),
    jwks_uri: Type.String(),
  },
  { additionalProperties: true, description: 'the endpoints and what each supports' },
);
