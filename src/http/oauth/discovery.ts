import type { FastifyInstance } from 'fastify';
import type { Container } from '../../composition/container.ts';
import { AUTH_METHODS, GRANT_TYPES, OAUTH_SCOPES } from '../../domain/clients/client-rules.ts';
import { PROMPT_VALUES } from '../../domain/oauth/authorization-request.ts';
import { clientSigningAlgs, FAPI_ALGS } from '../../domain/oauth/fapi-profile.ts';
import { ACR_VALUES } from '../../domain/sessions/authentication.ts';
import { SIGNING_ALGS, VERIFIED_ALGS } from '../../domain/sessions/signing-algorithms.ts';
import { LANGUAGES } from '../../i18n/languages.ts';
import { oauthAnswer, ProviderMetadata } from './responses.ts';

/** The services these routes use. */
type Services = Pick<Container, 'config'>;

/** The claims ID tokens and userinfo may carry. */
const CLAIMS = [
  'sub',
  'iss',
  'aud',
  'exp',
  'iat',
  'auth_time',
  'amr',
  'acr',
  'nonce',
  'sid', // In ID tokens of clients that take back-channel logouts
  'name',
  'picture',
  'updated_at',
  'phone',
  'phone_verified',
  'phone_number',
  'phone_number_verified',
  'email',
  'email_verified',
  'kyc_status',
  'kyc_country',
];

/**
 * OpenID Connect Discovery 1.0, describing exactly what this server serves: the same document as
 * RFC 8414 authorization server metadata, where OAuth clients (MCP's among them) look for it.
 */
export function discoveryRoutes(app: FastifyInstance, c: Services) {
  const { baseUrl, authUrl } = c.config;
  // FAPI_PROFILE=2.0 for every client: keys alone authenticate, and RS256 signs nothing.
  const fapi = c.config.oauth.fapiProfile;
  const methods = fapi ? ['private_key_jwt'] : AUTH_METHODS;
  const algs = fapi ? FAPI_ALGS : SIGNING_ALGS;
  // What clients sign, verified here: the same, and Ed25519 (RFC 9864's name for EdDSA)
  const clientAlgs = clientSigningAlgs(fapi);
  const document = {
    issuer: baseUrl,
    authorization_endpoint: `${authUrl}/authorize`,
    token_endpoint: `${baseUrl}/oauth/token`,
    userinfo_endpoint: `${baseUrl}/oauth/userinfo`,
    revocation_endpoint: `${baseUrl}/oauth/revoke`,
    introspection_endpoint: `${baseUrl}/oauth/introspect`,
    end_session_endpoint: `${authUrl}/authorize/logout`,
    jwks_uri: `${baseUrl}/.well-known/jwks.json`,
    registration_endpoint: `${baseUrl}/oauth/register`,
    // RFC 8628 §4
    device_authorization_endpoint: `${baseUrl}/oauth/device_authorization`,
    service_documentation: `${baseUrl}/docs`, // The OpenAPI reference
    response_types_supported: ['code'],
    prompt_values_supported: PROMPT_VALUES,
    ui_locales_supported: LANGUAGES,
    response_modes_supported: ['query'],
    grant_types_supported: GRANT_TYPES,
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: algs,
    userinfo_signing_alg_values_supported: algs,
    scopes_supported: OAUTH_SCOPES,
    // What a token's acr may say: one factor (a PIN or a code), or a passkey's phishing-resistant sign-in
    acr_values_supported: ACR_VALUES,
    claims_supported: CLAIMS,
    code_challenge_methods_supported: ['S256'],
    // RFC 6749 §2.3.1: a confidential client with a secret may use either secret method, whatever it registered
    token_endpoint_auth_methods_supported: methods,
    revocation_endpoint_auth_methods_supported: methods,
    introspection_endpoint_auth_methods_supported: methods.filter((m) => m !== 'none'),
    // RFC 7523: the algorithms a private_key_jwt assertion may be signed with (never none, never a MAC)
    token_endpoint_auth_signing_alg_values_supported: clientAlgs,
    revocation_endpoint_auth_signing_alg_values_supported: clientAlgs,
    introspection_endpoint_auth_signing_alg_values_supported: clientAlgs,
    authorization_response_iss_parameter_supported: true,
    // RFC 9101: signed request objects by value; a request_uri only as PAR gives it, never a URL to fetch
    request_parameter_supported: true,
    request_object_signing_alg_values_supported: clientAlgs,
    request_uri_parameter_supported: false,
    // RFC 9449: DPoP proofs by these algorithms bind tokens to a key
    dpop_signing_alg_values_supported: VERIFIED_ALGS,
    // RFC 9126
    pushed_authorization_request_endpoint: `${baseUrl}/oauth/par`,
    require_pushed_authorization_requests: c.config.oauth.requirePar || fapi,
    // OIDC Back-Channel Logout 1.0 §2.1; logout tokens always carry the sid
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
  };
  for (const [path, summary] of [
    ['/.well-known/openid-configuration', 'OpenID Provider metadata'],
    [
      '/.well-known/oauth-authorization-server',
      'OAuth 2.0 authorization server metadata (RFC 8414), the same',
    ],
  ])
    app.get(
      path,
      { schema: { tags: ['OAuth'], summary, response: oauthAnswer(ProviderMetadata) } },
      async (_req, reply) =>
        reply
          .header('Cache-Control', 'public, max-age=300')
          .header('Access-Control-Allow-Origin', '*') // A public document, readable from any page
          .send(document),
    );
}
