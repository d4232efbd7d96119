// The FAPI 2.0 Security Profile, for a client registered with `fapi_2_0: true`, or for every client under
// FAPI_PROFILE=2.0.
//
// Rules it enforces, each where the request meets it:
// - Its authorization requests come through PAR (request-parameters.ts asks `mustPush`).
// - It authenticates by key: `private_key_jwt`; a secret, or no authentication, is refused, and its token
//   requests carry a DPoP proof, so its tokens are bound to its key (both in client-authentication.ts, which
//   also says whether the profile applies).
// - What is signed for it or by it uses PS256, ES256 or EdDSA: its ID tokens and access tokens (RS256,
//   registered or the default, becomes PS256), its client assertions and its request objects.
// PKCE with S256, codes of 60 s, `iss` in the authorization response and `response_type=code` alone hold for
// every client already.
import { type SigningAlg, VERIFIED_ALGS } from '../sessions/signing-algorithms.ts';

/** FAPI 2.0 Security Profile §5.4.1: the JWS algorithms it allows. */
export const FAPI_ALGS: readonly SigningAlg[] = ['PS256', 'ES256', 'EdDSA'];

/** The algorithm to sign with for the client: RS256 becomes PS256 where the profile applies. */
export const fapiSigningAlg = (alg: SigningAlg, fapi: boolean): SigningAlg =>
  fapi && !FAPI_ALGS.includes(alg) ? 'PS256' : alg;

/** The algorithms the client may sign its assertions and request objects with. */
export const clientSigningAlgs = (fapi: boolean): string[] =>
  fapi ? [...FAPI_ALGS, 'Ed25519'] : [...VERIFIED_ALGS];
