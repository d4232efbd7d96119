// A signed authorization request: a request object (RFC 9101, OIDC Core §6.1), sent as `request` to the
// authorization endpoint or in a pushed request's body.
//
// Rules it enforces:
// - It is a JWT signed with one of the keys the client registered, by RS256, PS256, ES256 or EdDSA (not
//   RS256 under FAPI 2.0): never `alg: none`, never a MAC, never another client's key. A client with no
//   keys cannot send one.
// - Its `iss` is the client's id and its `aud` this service (the issuer, or the authorization endpoint).
// - It carries `exp`, not passed and at most an hour ahead, so a captured request does not live on.
// - Its `client_id`, where it says one, is the client's: the request's outer `client_id` must match (§5).
// - Only the parameters inside count: the caller replaces every outer parameter with them (§5).
import { errors, jwtVerify } from 'jose';
import type { Clock } from '../../providers/clock.ts';
import type { ClientRow } from '../../storage/repositories/clients.ts';
import type { ClientKeySets } from './client-key-sets.ts';
import { OAuthError } from './oauth-error.ts';

/** The furthest ahead a request object's `exp` may lie (FAPI 2.0's bound on its lifetime). */
export const MAX_REQUEST_OBJECT_LIFETIME_SECONDS = 3600;
/** How far the client's clock may be from ours. */
const CLOCK_TOLERANCE_SECONDS = 10;
/** The claims of a JWT that are not authorization parameters, and the references a request object cannot nest. */
const NOT_PARAMETERS = ['iss', 'aud', 'exp', 'iat', 'nbf', 'jti', 'sub', 'request', 'request_uri'];

export interface RequestObjectDeps {
  clock: Clock;
  keySets: ClientKeySets;
  /** what `aud` may say: the issuer and the authorization endpoint's URL */
  audiences: string[];
  /** the algorithms the client may sign with (fewer under FAPI 2.0) */
  algorithms: string[];
}

/** The request object was not accepted: `invalid_request_object`, with why. */
export class RequestObjectRefused extends Error {}

function refusalOf(err: unknown): RequestObjectRefused {
  if (err instanceof RequestObjectRefused) return err;
  if (err instanceof errors.JWTExpired) return new RequestObjectRefused('the request object has expired');
  if (err instanceof errors.JWTClaimValidationFailed)
    return new RequestObjectRefused(`the request object's ${err.claim} is wrong: ${err.message}`);
  if (err instanceof errors.JOSEAlgNotAllowed)
    return new RequestObjectRefused(`the request object's alg is not one this client may sign with`);
  if (err instanceof errors.JWKSNoMatchingKey || err instanceof errors.JWSSignatureVerificationFailed)
    return new RequestObjectRefused("the request object is not signed with one of the client's keys");
  // The client's keys could not be had (none registered, its jwks_uri unreachable): the key sets say why.
  if (err instanceof OAuthError) return new RequestObjectRefused(err.description);
  return new RequestObjectRefused('the request object is not a signed JWT');
}

/** A parameter's value as the query would carry it: strings as they are, numbers (max_age) as text. */
const asParameter = (value: unknown) =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;

/** The authorization parameters the client signed; RequestObjectRefused when it may not be used. */
export async function openRequestObject(
  d: RequestObjectDeps,
  client: ClientRow,
  jwt: string,
): Promise<Record<string, string>> {
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(jwt, d.keySets.resolverFor(client), {
      algorithms: d.algorithms,
      issuer: client.client_id,
      audience: d.audiences,
      requiredClaims: ['exp'],
      currentDate: d.clock.now(),
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    }));
  } catch (err) {
    throw refusalOf(err);
  }
  const ahead = (payload.exp as number) - d.clock.now().getTime() / 1000;
  if (ahead > MAX_REQUEST_OBJECT_LIFETIME_SECONDS + CLOCK_TOLERANCE_SECONDS)
    throw new RequestObjectRefused(`the request object's exp lies more than an hour ahead`);
  if (payload.client_id !== undefined && payload.client_id !== client.client_id)
    throw new RequestObjectRefused("the request object's client_id is not the request's");
  const parameters: Record<string, string> = {};
  for (const [name, value] of Object.entries(payload)) {
    const text = asParameter(value);
    if (!NOT_PARAMETERS.includes(name) && text !== undefined) parameters[name] = text;
  }
  return { ...parameters, client_id: client.client_id };
}
