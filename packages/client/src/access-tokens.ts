// A backend's check of the access tokens its app sends: signed by the service's current keys (fetched once and
// kept by jose), issued by it, for the app's audience, unexpired, and an access token (it carries a scope), not
// an ID token.
import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from 'jose';
import { CallsignError, CallsignNetworkError } from './errors.js';

export interface AccessTokenClaims extends JWTPayload {
  sub: string;
  scope: string;
  /** the session the token acts for */
  sid: string;
  /** when the session's sign-in was proved (Unix seconds) */
  auth_time?: number;
  /** how it was proved: pin, otp, hwk (a passkey), ... */
  amr?: string[];
  acr?: string;
}

export interface VerifyOptions {
  /** the service's address (its BASE_URL), which issues the tokens */
  issuer: string;
  /** whom the token is for: the REST surface's tokens are for `callsign` unless the operator named another */
  audience: string | string[];
  /** where the keys are; `{issuer}/.well-known/jwks.json` by default */
  jwksUrl?: string;
}

const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

/** The service's keys at `url`, fetched once and kept by jose. */
export function keySetAt(url: string) {
  let keys = keySets.get(url);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(url));
    keySets.set(url, keys);
  }
  return keys;
}

/** The token's claims; a CallsignError (TOKEN_EXPIRED or INVALID_TOKEN, status 401) when it does not pass. */
export async function verifyAccessToken(token: string, options: VerifyOptions): Promise<AccessTokenClaims> {
  const issuer = options.issuer.replace(/\/+$/, '');
  const keys = keySetAt(options.jwksUrl ?? `${issuer}/.well-known/jwks.json`);
  try {
    const { payload } = await jwtVerify(token, keys, {
      issuer,
      audience: options.audience,
      algorithms: ['RS256'],
      requiredClaims: ['sub', 'exp', 'scope'],
    });
    if (typeof payload.scope !== 'string' || typeof payload.sid !== 'string')
      throw new CallsignError('INVALID_TOKEN', 'not an access token', 401);
    return payload as AccessTokenClaims;
  } catch (err) {
    if (err instanceof CallsignError) throw err;
    if (err instanceof errors.JWKSTimeout || !(err instanceof errors.JOSEError))
      throw new CallsignNetworkError('the signing keys could not be fetched', { cause: err });
    if (err instanceof errors.JWTExpired)
      throw new CallsignError('TOKEN_EXPIRED', 'the token has expired', 401);
    throw new CallsignError('INVALID_TOKEN', `the token does not pass: ${err.message}`, 401);
  }
}
