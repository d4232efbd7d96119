// A client's own access tokens, given by the client_credentials grant (RFC 6749 §4.4) in the form of RFC 9068.
//
// Rules it enforces:
// - A client's token is typed `at+jwt` and names the client (`client_id`, and `sub` as RFC 9068 §2.2 says) with
//   no session: a person's token (typed `JWT`, with `sid`) is never taken for a client's, nor the other way.
// - It is for this service (`aud` is the issuer), lives CLIENT_TOKEN_TTL_SECONDS, and carries only the
//   client's own scopes (domain/clients/client-scopes.ts).
// - A token bound to a DPoP key is used only with a proof of that key (dpop-possession.ts).
// - A call that needs a scope is answered only for a token that holds it (insufficient_scope otherwise).
import { errors, jwtVerify } from 'jose';
import { type Clock, unixSeconds } from '../../providers/clock.ts';
import type { Random } from '../../providers/random.ts';
import { signJwt } from '../sessions/access-tokens.ts';
import type { KeyRing } from '../sessions/key-ring.ts';
import { SIGNING_ALGS, type SigningAlg } from '../sessions/signing-algorithms.ts';
import type { Dpop } from './dpop.ts';
import { type PresentedToken, provePossession } from './dpop-possession.ts';
import { OAuthError } from './oauth-error.ts';

/** A client's token lives ten minutes: it has no session to end, so it is not revoked but outlived. */
export const CLIENT_TOKEN_TTL_SECONDS = 600;
/** RFC 9068 §2.1: the media type of a JWT access token. */
const CLIENT_TOKEN_TYP = 'at+jwt';

export interface ClientTokenClaims {
  iss: string;
  sub: string;
  aud: string;
  client_id: string;
  scope: string;
  jti: string;
  iat: number;
  exp: number;
  cnf?: { jkt: string };
}

export class ClientTokens {
  constructor(
    private readonly keys: KeyRing,
    private readonly clock: Clock,
    private readonly random: Random,
    private readonly issuer: string,
    private readonly dpop: Dpop,
    private readonly accessTokenAlg: SigningAlg = 'RS256',
  ) {}

  /** The client whose token a request presents, with the scope the call needs and a proof where it is bound. */
  async clientOf(presented: PresentedToken, scope: string): Promise<string> {
    const claims = await this.verify(presented.token);
    await provePossession(this.dpop, claims, presented);
    if (!claims.scope.split(' ').includes(scope))
      throw new OAuthError('insufficient_scope', `this call needs a token with the ${scope} scope`);
    return claims.client_id;
  }

  /** A token of the client for its own scopes, bound to a DPoP key where the request proved one. */
  issue(c: { clientId: string; scope: string; jkt?: string; fapi?: boolean }): string {
    const alg = c.fapi && this.accessTokenAlg === 'RS256' ? 'PS256' : this.accessTokenAlg;
    const { kid, privateKey } = this.keys.signingKey(alg);
    const iat = unixSeconds(this.clock.now());
    const claims: ClientTokenClaims = {
      iss: this.issuer,
      sub: c.clientId,
      aud: this.issuer,
      client_id: c.clientId,
      scope: c.scope,
      jti: this.random.uuid(),
      iat,
      exp: iat + CLIENT_TOKEN_TTL_SECONDS,
      ...(c.jkt ? { cnf: { jkt: c.jkt } } : {}),
    };
    return signJwt(alg, { kid, typ: CLIENT_TOKEN_TYP }, { ...claims }, privateKey);
  }

  /** The claims of a client's token of ours, unexpired; invalid_token for anything else, a person's token too. */
  async verify(token: string): Promise<ClientTokenClaims> {
    try {
      const { payload } = await jwtVerify(token, this.keys.verificationKey, {
        issuer: this.issuer,
        audience: this.issuer,
        algorithms: [...SIGNING_ALGS],
        typ: CLIENT_TOKEN_TYP,
        currentDate: this.clock.now(),
      });
      const { client_id, sub, scope } = payload;
      if (typeof client_id !== 'string' || sub !== client_id || typeof scope !== 'string' || 'sid' in payload)
        throw new errors.JWTClaimValidationFailed('not a client token', payload);
      return payload as unknown as ClientTokenClaims;
    } catch (err) {
      if (err instanceof errors.JWTExpired)
        throw new OAuthError('invalid_token', 'the access token has expired');
      throw new OAuthError('invalid_token', 'the access token is invalid');
    }
  }
}
