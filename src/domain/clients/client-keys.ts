import { fieldError } from '../errors.ts';
import { isSigningAlg, SIGNING_ALGS, type SigningAlg } from '../sessions/signing-algorithms.ts';
import { parseOutboundUrl } from '../webhooks/webhook-addresses.ts';

/**
 * What a client registers about keys and signatures, under RFC 7591's names (and OIDC Registration §2's): the
 * algorithm of its ID tokens and of its userinfo answers, and the public keys it signs with (for
 * `private_key_jwt` and request objects), given inline as `jwks` or at a `jwks_uri` this service fetches.
 */
export interface ClientKeys {
  id_token_signed_response_alg: SigningAlg;
  /** null: userinfo answers plain JSON */
  userinfo_signed_response_alg: SigningAlg | null;
  jwks: { keys: Record<string, unknown>[] } | null;
  jwks_uri: string | null;
  /** RFC 9126 §6: the client's authorization requests must come through PAR */
  require_pushed_authorization_requests: boolean;
  /** RFC 9449 §5.2: its token requests always carry a DPoP proof */
  dpop_bound_access_tokens: boolean;
  /** the FAPI 2.0 Security Profile applies to it */
  fapi_2_0: boolean;
}

export const CLIENT_KEY_FIELDS = [
  'id_token_signed_response_alg',
  'userinfo_signed_response_alg',
  'jwks',
  'jwks_uri',
  'require_pushed_authorization_requests',
  'dpop_bound_access_tokens',
  'fapi_2_0',
] as const;

const FLAGS = ['require_pushed_authorization_requests', 'dpop_bound_access_tokens', 'fapi_2_0'] as const;

/** At most this many keys in a client's `jwks`: enough for a rotation of several algorithms. */
export const MAX_CLIENT_KEYS = 10;
/** Members of a JWK that belong to a private key (RFC 7518 §6.2.2, §6.3.2, RFC 8037 §2) or a secret. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];
const KEY_TYPES = ['RSA', 'EC', 'OKP'];

function parseAlg(value: unknown, field: string, fallback: SigningAlg | null): SigningAlg | null {
  if (value === undefined || value === null) return fallback;
  if (!isSigningAlg(value))
    throw fieldError('INVALID_REQUEST', field, `${field} must be one of ${SIGNING_ALGS.join(', ')}`);
  return value;
}

/** A JWK Set of public keys (RFC 7517 §5) of the kinds this service verifies, each with a `kid` of its own. */
function parseJwks(value: unknown): ClientKeys['jwks'] {
  if (value === undefined || value === null) return null;
  const keys = (value as { keys?: unknown })?.keys;
  const problem = (text: string) => fieldError('INVALID_REQUEST', 'jwks', text);
  if (typeof value !== 'object' || !Array.isArray(keys) || keys.length === 0 || keys.length > MAX_CLIENT_KEYS)
    throw problem(`jwks must be a JWK Set: {"keys": [...]} with 1-${MAX_CLIENT_KEYS} keys`);
  for (const key of keys) {
    if (typeof key !== 'object' || key === null || !KEY_TYPES.includes((key as { kty?: string }).kty ?? ''))
      throw problem(`every key in jwks must be a JWK of kty ${KEY_TYPES.join(', ')}`);
    if (PRIVATE_MEMBERS.some((member) => member in key))
      throw problem('jwks must hold public keys only: never send a private key');
  }
  if (JSON.stringify(value).length > 20_000) throw problem('jwks is too large');
  return { keys: keys as Record<string, unknown>[] };
}

/** The client's key and signature metadata, with its defaults (RS256 ID tokens, JSON userinfo, no keys). */
export function parseClientKeys(body: Record<string, unknown>, allowPrivateNetworks: boolean): ClientKeys {
  const jwks = parseJwks(body.jwks);
  const jwksUri =
    body.jwks_uri === undefined || body.jwks_uri === null || body.jwks_uri === ''
      ? null
      : parseOutboundUrl(body.jwks_uri, 'jwks_uri', allowPrivateNetworks);
  // RFC 7591 §2: jwks and jwks_uri MUST NOT both be present.
  if (jwks && jwksUri) throw fieldError('INVALID_REQUEST', 'jwks', 'send jwks or jwks_uri, not both');
  const flag = (field: (typeof FLAGS)[number]) => {
    const value = body[field] ?? false;
    if (typeof value !== 'boolean')
      throw fieldError('INVALID_REQUEST', field, `${field} must be true or false`);
    return value;
  };
  const fapi = flag('fapi_2_0');
  // FAPI 2.0 §5.4.1: PS256, ES256 or EdDSA; a FAPI client's ID tokens are PS256 unless it says.
  const fapiAlg = (field: string, alg: SigningAlg | null) => {
    if (fapi && alg === 'RS256')
      throw fieldError('INVALID_REQUEST', field, `FAPI 2.0: ${field} cannot be RS256`);
    return alg;
  };
  return {
    id_token_signed_response_alg: fapiAlg(
      'id_token_signed_response_alg',
      parseAlg(body.id_token_signed_response_alg, 'id_token_signed_response_alg', fapi ? 'PS256' : 'RS256'),
    ) as SigningAlg,
    userinfo_signed_response_alg: fapiAlg(
      'userinfo_signed_response_alg',
      parseAlg(body.userinfo_signed_response_alg, 'userinfo_signed_response_alg', null),
    ),
    jwks,
    jwks_uri: jwksUri,
    require_pushed_authorization_requests: flag('require_pushed_authorization_requests'),
    dpop_bound_access_tokens: flag('dpop_bound_access_tokens'),
    fapi_2_0: fapi,
  };
}

/** Whether the client has registered keys to verify its signatures with. */
export const hasKeys = (client: { jwks: unknown; jwks_uri: string | null }) =>
  client.jwks !== null || client.jwks_uri !== null;
