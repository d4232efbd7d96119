// How the OAuth 2.0 / OpenID Connect provider signs and what it demands of every client.
//
// Rules it enforces (at start, every problem named):
// - ACCESS_TOKEN_ALG is one of the JWS algorithms the key ring signs with; RS256 unless set, so verifiers of
//   today's tokens need no change.
// - REQUIRE_PAR is true or false: when true, every client's authorization request must come through PAR.
// - DPOP_NONCE is `off` or `required`: required, every DPoP proof must carry a nonce this service gave.
// - FAPI_PROFILE is unset or `2.0`: 2.0 applies the FAPI 2.0 Security Profile to every client.
// - OPEN_CLIENT_REGISTRATION is true or false: true lets public clients register without an initial token.
// - DEVICE_CODE_TTL is 60-3600 seconds (600 unless set): how long a device has to be allowed (RFC 8628).
import type { EnvReader } from './env-reader.ts';

/** The JWS algorithms the key ring holds a key of, each its own (RFC 7518 §3.3-3.5, RFC 8037). */
export const SIGNING_ALGS = ['RS256', 'PS256', 'ES256', 'EdDSA'] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];

export interface OAuthSettings {
  /** ACCESS_TOKEN_ALG: the algorithm of every access token */
  accessTokenAlg: SigningAlg;
  /** REQUIRE_PAR: every client's authorization requests come through PAR (RFC 9126 §5) */
  requirePar: boolean;
  /** DPOP_NONCE=required: DPoP proofs carry a server nonce (RFC 9449 §8, §9) */
  dpopNonceRequired: boolean;
  /** FAPI_PROFILE=2.0: the FAPI 2.0 Security Profile for every client */
  fapiProfile: boolean;
  /** OPEN_CLIENT_REGISTRATION: public clients register without an initial access token (RFC 7591 §3) */
  openRegistration: boolean;
  /** DEVICE_CODE_TTL: how long a device code and its user code live, in seconds (RFC 8628 §3.2) */
  deviceCodeTtlSeconds: number;
}

export function oauthSettings(r: EnvReader): OAuthSettings {
  return {
    accessTokenAlg: r.oneOf<SigningAlg>('ACCESS_TOKEN_ALG', SIGNING_ALGS, 'RS256'),
    requirePar: r.bool('REQUIRE_PAR', false),
    openRegistration: r.bool('OPEN_CLIENT_REGISTRATION', false),
    fapiProfile: r.oneOf<'none' | '2.0'>('FAPI_PROFILE', ['none', '2.0'], 'none') === '2.0',
    dpopNonceRequired: r.oneOf<'off' | 'required'>('DPOP_NONCE', ['off', 'required'], 'off') === 'required',
    deviceCodeTtlSeconds: r.integer('DEVICE_CODE_TTL', 600, 60, 3600, 'a number of seconds from 60 to 3600'),
  };
}
