// The OAuth surface's answers, as its routes document them.
import { Type } from 'typebox';
import { errorBody } from '../openapi-types.ts';

const oauthError = errorBody(
  'RFC 6749 §5.2 or RFC 6750 §3.1: invalid_request, invalid_client, invalid_grant, ...',
);

/** An OAuth route's answers: its own, then RFC 6749 §5.2's error body. */
export const oauthAnswer = <T extends object>(answer: T) => ({
  200: answer,
  '4xx': oauthError,
  '5xx': oauthError,
});

/** RFC 6749 §5.1, with OpenID Connect's ID token. */
export const TokenResponse = Type.Object(
  {
    access_token: Type.String({ description: 'an RS256 JWT, for 1 hour' }),
    token_type: Type.Literal('Bearer'),
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
  },
  { additionalProperties: true, description: 'whether the token is active, and if so what it says' },
);

/** OpenID Connect Core §5.3.2: the claims of the token's scopes. */
export const UserinfoClaims = Type.Record(Type.String(), Type.Unknown(), {
  description: 'sub, and the claims of the granted scopes (profile, phone, email, kyc)',
});

/** RFC 7009 §2.2: an empty object. */
export const Revoked = Type.Object(
  {},
  { description: 'the token and its session are revoked (or were unknown)' },
);

/** RFC 7517: the public keys that verify our tokens, by `kid`. */
export const Jwks = Type.Object({
  keys: Type.Array(
    Type.Object(
      {
        kty: Type.Literal('RSA'),
        kid: Type.String(),
        use: Type.Optional(Type.String()),
        alg: Type.Optional(Type.String()),
        n: Type.String(),
        e: Type.String(),
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
