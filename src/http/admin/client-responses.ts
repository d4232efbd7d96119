// The admin API's answers about OAuth clients: a client's registration in RFC 7591's names.
import { Type } from 'typebox';
import { dateTime, nullable } from '../openapi-types.ts';

const text = nullable(Type.String());

/** RFC 7591's names; the secret appears only in the answer that creates it. */
export const AdminClient = Type.Object({
  client_id: Type.String(),
  client_name: Type.String(),
  redirect_uris: Type.Array(Type.String()),
  grant_types: Type.Array(Type.String()),
  scope: Type.String(),
  token_endpoint_auth_method: Type.String({
    description: 'none, client_secret_basic, client_secret_post or private_key_jwt',
  }),
  first_party: Type.Boolean(),
  backchannel_logout_uri: text,
  post_logout_redirect_uris: Type.Array(Type.String()),
  logo_uri: text,
  client_uri: text,
  policy_uri: text,
  tos_uri: text,
  brand_color: text,
  id_token_signed_response_alg: Type.String(),
  userinfo_signed_response_alg: text,
  jwks: nullable(Type.Object({ keys: Type.Array(Type.Record(Type.String(), Type.Unknown())) })),
  jwks_uri: text,
  require_pushed_authorization_requests: Type.Boolean(),
  dpop_bound_access_tokens: Type.Boolean(),
  fapi_2_0: Type.Boolean(),
  previous_secret_expires_at: nullable(dateTime('after a secret roll: until when the old secret works')),
  created_at: dateTime(),
});

export const CreatedClient = Type.Intersect([
  AdminClient,
  Type.Object({
    client_secret: Type.Optional(Type.String({ description: 'confidential clients; shown once' })),
  }),
]);
