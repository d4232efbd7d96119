// What admin routes share: the bearer scheme in the OpenAPI document, the `:id` path parameter, the query of a
// log of sends, and a client registration's fields.
import { Type } from 'typebox';
import { described } from '../described.ts';

export const security = [{ bearer: [] }];
export const idParam = Type.Object({ id: Type.String() });

/** A newest-first log of sends (webhook deliveries, back-channel logouts), read by `parseSendLogPage`. */
export const sendLogQuery = Type.Object({
  status: Type.Optional(Type.String({ description: 'pending, delivered or failed' })),
  limit: Type.Optional(Type.String({ description: '1-200, 50 if absent' })),
  before: Type.Optional(Type.String({ description: 'created_at of the last row of the previous page' })),
});

/** A client's registration (RFC 7591's names), checked by the domain, which names the field at fault. */
export const clientFields = described({
  client_name: 'shown on the consent page and in the sessions list',
  redirect_uris: 'https URIs (http only on localhost, or an app scheme), compared exactly',
  grant_types:
    'authorization_code, refresh_token, urn:ietf:params:oauth:grant-type:device_code, client_credentials (a client that authenticates, for its own scopes)',
  scope: 'the scopes the client may ask for, space-separated; ssf.manage is its own, with client_credentials',
  token_endpoint_auth_method:
    'none (public, PKCE only), client_secret_basic, client_secret_post, or private_key_jwt (a JWT signed with a key of jwks or jwks_uri)',
  first_party: 'true: no consent page',
  backchannel_logout_uri: 'where ended sessions are announced (OIDC Back-Channel Logout); null removes it',
  post_logout_redirect_uris: 'the only addresses a logout may send the browser back to',
  logo_uri:
    'https URL of a JPEG, PNG or WebP logo; fetched once and served from this service; null removes it',
  client_uri: "the client's home page, linked from its name on the sign-in pages",
  policy_uri: 'its privacy policy, linked from the sign-in and consent pages',
  tos_uri: 'its terms of service, linked from the sign-in and consent pages',
  brand_color: '#rrggbb; adjusted on the pages until it reads well (WCAG AA)',
  id_token_signed_response_alg: 'RS256 (the default), PS256, ES256 or EdDSA: how its ID tokens are signed',
  userinfo_signed_response_alg:
    'RS256, PS256, ES256 or EdDSA: userinfo answers as a signed JWT; null (the default): plain JSON',
  jwks: 'its public keys, a JWK Set {"keys": [...]}, for private_key_jwt and request objects',
  jwks_uri: 'or where this service fetches them (https; cached, fetched again for an unknown kid)',
  require_pushed_authorization_requests: 'true: its authorization requests must come through /oauth/par',
  dpop_bound_access_tokens: 'true: its token requests must carry a DPoP proof (RFC 9449), binding its tokens',
  fapi_2_0:
    'true: the FAPI 2.0 Security Profile applies (PAR, PKCE, private_key_jwt, DPoP, PS256/ES256, 60 s codes)',
});
