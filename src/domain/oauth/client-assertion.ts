// A client authenticating by key: `private_key_jwt` (RFC 7523 §2.2 and §3, OIDC Core §9).
//
// Rules it enforces:
// - The assertion is a JWT signed with one of the keys the client registered (its `jwks`, or the set at its
//   `jwks_uri`), by RS256, PS256, ES256 or EdDSA (not RS256 under FAPI 2.0): never `alg: none`, never a MAC
//   made with a shared secret.
// - Its `iss` and `sub` are both the client's id.
// - Its `aud` names this service: the issuer, the token endpoint's URL, or the URL of the endpoint called.
// - It carries `exp`, which has not passed and lies at most 5 minutes ahead: an assertion that lived longer
//   would be a credential worth stealing.
// - It carries a `jti` that this client has not used before: an assertion is good for one request, also
//   when two arrive at once; the use is kept until the assertion expires (storage/rules/jwt-id-uses.ts).
import { errors, jwtVerify } from 'jose';
import type { Clock } from '../../providers/clock.ts';
import type { Database } from '../../storage/db.ts';
import type { ClientRow } from '../../storage/repositories/clients.ts';
import { useJwtId } from '../../storage/rules/jwt-id-uses.ts';
import type { ClientKeySets } from './client-key-sets.ts';
import { OAuthError } from './oauth-error.ts';

/** RFC 7523 §2.2: the `client_assertion_type` of a JWT client assertion. */
export const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** The furthest ahead an assertion's `exp` may lie. */
export const MAX_ASSERTION_LIFETIME_SECONDS = 300;
/** How far the client's clock may be from ours when `exp`, `nbf` and `iat` are read. */
export const ASSERTION_CLOCK_TOLERANCE_SECONDS = 10;
/** The longest `jti` kept. */
const MAX_JTI_LENGTH = 256;

export interface ClientAssertionDeps {
  db: Database;
  clock: Clock;
  keySets: ClientKeySets;
}

const refused = (why: string) => new OAuthError('invalid_client', `client assertion refused: ${why}`);

/** Why jose refused the assertion, in words a client's developer can act on. */
function joseRefusal(err: unknown): OAuthError {
  if (err instanceof OAuthError) return err;
  if (err instanceof errors.JWTExpired) return refused('it has expired (exp)');
  if (err instanceof errors.JWTClaimValidationFailed) return refused(`${err.claim}: ${err.message}`);
  if (err instanceof errors.JOSEAlgNotAllowed)
    return refused(
      'alg is not one this client may sign with (never none or a MAC; under FAPI 2.0 not RS256)',
    );
  if (err instanceof errors.JWKSNoMatchingKey)
    return refused("it is not signed with one of the client's keys");
  if (err instanceof errors.JWSSignatureVerificationFailed) return refused('the signature does not verify');
  return refused('it is not a signed JWT');
}

/**
 * Verifies a `private_key_jwt` client assertion of this client, sent to an endpoint of this service whose URL
 * (with the issuer and the token endpoint) the assertion's `aud` may name, and spends its `jti`. The
 * algorithms are the client's (fewer under the FAPI 2.0 profile).
 */
export async function verifyClientAssertion(
  d: ClientAssertionDeps,
  client: ClientRow,
  assertion: string,
  { audiences, algorithms }: { audiences: string[]; algorithms: string[] },
): Promise<void> {
  const now = d.clock.now();
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(assertion, d.keySets.resolverFor(client), {
      algorithms,
      issuer: client.client_id,
      subject: client.client_id,
      audience: audiences,
      requiredClaims: ['exp', 'jti'],
      currentDate: now,
      clockTolerance: ASSERTION_CLOCK_TOLERANCE_SECONDS,
    }));
  } catch (err) {
    throw joseRefusal(err);
  }
  const exp = payload.exp as number;
  const nowSeconds = now.getTime() / 1000;
  if (exp - nowSeconds > MAX_ASSERTION_LIFETIME_SECONDS + ASSERTION_CLOCK_TOLERANCE_SECONDS)
    throw refused(`exp lies more than ${MAX_ASSERTION_LIFETIME_SECONDS} s ahead`);
  const { jti } = payload;
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > MAX_JTI_LENGTH)
    throw refused(`jti must be 1-${MAX_JTI_LENGTH} characters`);
  const firstUse = await useJwtId(d.db, `client:${client.client_id}`, jti, new Date(exp * 1000));
  if (!firstUse) throw refused('its jti was used before: make a new assertion for every request');
}
