import { fieldError } from '../errors.ts';
import { parseOutboundUrl } from '../webhooks/webhook-addresses.ts';
import { type ClientBranding, parseBranding } from './client-branding.ts';
import { type ClientKeys, hasKeys, parseClientKeys } from './client-keys.ts';
import { assertClientScopeRules, CLIENT_CREDENTIALS_GRANT, SSF_MANAGE } from './client-scopes.ts';

/**
 * Profile reads; profile:write changes the profile and account:delete deletes the account on /api/v1;
 * ssf.manage is the client's own, for its Shared Signals streams.
 */
export const OAUTH_SCOPES = [
  'openid',
  'profile',
  'profile:write',
  'phone',
  'email',
  'kyc',
  'account:delete',
  SSF_MANAGE,
] as const;
/** RFC 8628 §3.4: the device authorization grant's type. */
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
export const GRANT_TYPES = [
  'authorization_code',
  'refresh_token',
  DEVICE_CODE_GRANT,
  CLIENT_CREDENTIALS_GRANT,
] as const;
/** The grants a client is given tokens by: one a person signs in for, or its own credentials. */
const TOKEN_GRANTS: readonly string[] = ['authorization_code', DEVICE_CODE_GRANT, CLIENT_CREDENTIALS_GRANT];
export const AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];
/** The methods that authenticate by a secret this service gives out. */
export const SECRET_METHODS: readonly AuthMethod[] = ['client_secret_basic', 'client_secret_post'];

export interface ClientSpec extends ClientBranding, ClientKeys {
  client_name: string;
  redirect_uris: string[];
  grant_types: string[];
  scope: string;
  token_endpoint_auth_method: AuthMethod;
  first_party: boolean;
  /** Where OIDC Back-Channel Logout tokens go; null: the client is not told */
  backchannel_logout_uri: string | null;
  /** OIDC RP-Initiated Logout 1.0 §3.1: where the browser may go back after a logout; may be empty */
  post_logout_redirect_uris: string[];
}

/**
 * A client_id: 16 random bytes, base64url, never starting with "-" (an operator types it after
 * `callsign clients delete`, where a leading dash would read as an option).
 */
export function newClientId(token: (bytes: number) => string): string {
  for (;;) {
    const id = token(16);
    if (!id.startsWith('-')) return id;
  }
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A redirect URI (and a post-logout one) is absolute and has no fragment (RFC 6749 §3.1.2); https, or http
 * on a loopback host, or a private-use scheme of a native app with a dot in it (RFC 8252 §7.1, §7.3).
 */
function assertRedirectUri(uri: unknown, field: string) {
  let url: URL;
  try {
    if (typeof uri !== 'string' || uri.length > 2048) throw new Error();
    url = new URL(uri);
  } catch {
    throw fieldError('INVALID_REQUEST', field, 'redirect URIs must be absolute URLs');
  }
  if (url.hash || (uri as string).includes('#'))
    throw fieldError('INVALID_REQUEST', field, 'redirect URIs cannot have a fragment');
  const scheme = url.protocol.slice(0, -1);
  const ok =
    scheme === 'https' ||
    (scheme === 'http' && LOOPBACK.has(url.hostname)) ||
    (scheme.includes('.') && !['http', 'https'].includes(scheme));
  if (!ok)
    throw fieldError(
      'INVALID_REQUEST',
      field,
      'redirect URIs must be https (http only on localhost, or an app scheme like com.example.app)',
    );
}

/**
 * The origins a browser app with these redirect URIs runs on: those of its https (and loopback http)
 * URIs. A native app's private-use scheme has none.
 */
export function webOrigins(redirectUris: string[]): string[] {
  return redirectUris
    .map((uri) => new URL(uri))
    .filter((url) => url.protocol === 'https:' || url.protocol === 'http:')
    .map((url) => url.origin);
}

const listOf = (value: unknown, field: string, allowed: readonly string[], fallback: string[]): string[] => {
  if (value === undefined) return fallback;
  if (!Array.isArray(value) || value.length === 0 || value.some((v) => !allowed.includes(v))) {
    throw fieldError('INVALID_REQUEST', field, `${field} must be a non-empty list of ${allowed.join(', ')}`);
  }
  return [...new Set(value as string[])];
};

/** The scopes a registration asks for, or the defaults: the client's own where it only has its credentials. */
function scopesOf(scope: unknown, grantTypes: string[]): string[] {
  const onlyItsOwn = grantTypes.every((g) => g === CLIENT_CREDENTIALS_GRANT);
  const scopes =
    scope === undefined
      ? onlyItsOwn
        ? [SSF_MANAGE]
        : ['openid', 'profile', 'phone']
      : typeof scope === 'string'
        ? scope.split(' ').filter(Boolean)
        : [];
  if (!scopes.length || scopes.some((s) => !(OAUTH_SCOPES as readonly string[]).includes(s)))
    throw fieldError(
      'INVALID_REQUEST',
      'scope',
      `scope must be space-separated values of ${OAUTH_SCOPES.join(', ')}`,
    );
  return scopes;
}

/**
 * D19 (RFC 7591 names, and OIDC Back-Channel Logout 1.0 §2.2's): validates a client registration and
 * fills its defaults. The logout URI is called by this service, so the rules for webhook URLs hold.
 */
export function parseClientSpec(
  body: Record<string, unknown>,
  { allowPrivateNetworks }: { allowPrivateNetworks: boolean },
): ClientSpec {
  const name = typeof body.client_name === 'string' ? body.client_name.trim() : '';
  if (name.length < 1 || name.length > 100)
    throw fieldError('INVALID_REQUEST', 'client_name', 'client_name must be 1-100 characters');
  const grant_types = listOf(body.grant_types, 'grant_types', GRANT_TYPES, [
    'authorization_code',
    'refresh_token',
  ]);
  if (!grant_types.some((g) => TOKEN_GRANTS.includes(g)))
    throw fieldError(
      'INVALID_REQUEST',
      'grant_types',
      `grant_types must include authorization_code, ${DEVICE_CODE_GRANT} or ${CLIENT_CREDENTIALS_GRANT}`,
    );
  // A device's client (RFC 8628) is sent back nowhere, so it may have no redirect URIs.
  const redirectUris = body.redirect_uris ?? (grant_types.includes('authorization_code') ? undefined : []);
  if (
    !Array.isArray(redirectUris) ||
    (redirectUris.length === 0 && grant_types.includes('authorization_code'))
  )
    throw fieldError('INVALID_REQUEST', 'redirect_uris', 'redirect_uris must be a non-empty list');
  for (const [i, uri] of redirectUris.entries()) assertRedirectUri(uri, `redirect_uris.${i}`);
  const logoutUris = body.post_logout_redirect_uris ?? [];
  if (!Array.isArray(logoutUris))
    throw fieldError(
      'INVALID_REQUEST',
      'post_logout_redirect_uris',
      'post_logout_redirect_uris must be a list',
    );
  for (const [i, uri] of logoutUris.entries()) assertRedirectUri(uri, `post_logout_redirect_uris.${i}`);
  const scopes = scopesOf(body.scope, grant_types);
  const method = body.token_endpoint_auth_method ?? 'client_secret_basic';
  if (!AUTH_METHODS.includes(method as AuthMethod)) {
    throw fieldError(
      'INVALID_REQUEST',
      'token_endpoint_auth_method',
      `token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}`,
    );
  }
  assertClientScopeRules(grant_types, scopes, method as string);
  if (body.first_party !== undefined && typeof body.first_party !== 'boolean') {
    throw fieldError('INVALID_REQUEST', 'first_party', 'first_party must be true or false');
  }
  const keys = parseClientKeys(body, allowPrivateNetworks);
  if (keys.fapi_2_0 && method !== 'private_key_jwt')
    throw fieldError(
      'INVALID_REQUEST',
      'token_endpoint_auth_method',
      'FAPI 2.0: token_endpoint_auth_method must be private_key_jwt',
    );
  if (method === 'private_key_jwt' && !hasKeys(keys))
    throw fieldError(
      'INVALID_REQUEST',
      'jwks',
      "private_key_jwt needs the client's public keys: jwks or jwks_uri",
    );
  return {
    ...keys,
    client_name: name,
    redirect_uris: [...new Set(redirectUris as string[])],
    grant_types,
    scope: [...new Set(scopes)].join(' '),
    token_endpoint_auth_method: method as AuthMethod,
    first_party: body.first_party === true,
    backchannel_logout_uri:
      body.backchannel_logout_uri == null
        ? null
        : parseOutboundUrl(body.backchannel_logout_uri, 'backchannel_logout_uri', allowPrivateNetworks),
    post_logout_redirect_uris: [...new Set(logoutUris as string[])],
    ...parseBranding(body, allowPrivateNetworks),
  };
}
