import { errors, jwtVerify } from 'jose';
import { type Clock, unixSeconds } from '../../providers/clock.ts';
import type { Random } from '../../providers/random.ts';
import { DomainError } from '../errors.ts';
import { type Authentication, authenticationClaims } from './authentication.ts';
import { type KeyRing, signRs256Jwt } from './key-ring.ts';

export interface AccessClaims {
  iss: string;
  sub: string;
  aud: string;
  scope: string;
  sid: string;
  jti: string;
  iat: number;
  exp: number;
  /** when and how the session's sign-in was proved; absent from tokens issued before they were said */
  auth_time?: number;
  amr?: string[];
  acr?: string;
}

/** OIDC Back-Channel Logout 1.0 §2.4: the member of a logout token's `events` claim. */
export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** How long a logout token is good for. */
export const LOGOUT_TOKEN_TTL_SECONDS = 120;

/** Spec "Tokens" and D14: RS256 JWTs with iss, sub, aud, exp, iat, scope, and sid + jti on every token. */
export class AccessTokens {
  constructor(
    private readonly keys: KeyRing,
    private readonly clock: Clock,
    private readonly random: Random,
    private readonly issuer: string,
  ) {}

  /** An access token of the session; it says when and how the session's sign-in was proved. */
  issue(c: {
    sub: string;
    aud: string;
    scope: string;
    sid: string;
    ttlSeconds: number;
    auth: Authentication;
  }): string {
    const claims = { scope: c.scope, sid: c.sid, jti: this.random.uuid(), ...authenticationClaims(c.auth) };
    return this.sign(claims, c.sub, c.aud, c.ttlSeconds);
  }

  /** Spec "ID token claims": iss, sub, aud, exp, iat, and the given ones (auth_time, nonce, scope claims). */
  issueIdToken(c: { sub: string; aud: string; ttlSeconds: number; claims: Record<string, unknown> }): string {
    return this.sign(c.claims, c.sub, c.aud, c.ttlSeconds);
  }

  /**
   * An OIDC Back-Channel Logout 1.0 logout token (§2.4): the ended session's sid and its user, for its
   * client; the backchannel-logout event, no nonce; explicitly typed `logout+jwt` (§2.4, §4.1) so that it
   * can't pass as an ID token. It is made at each attempt, so it never reaches the client expired: the 2 minutes
   * are the §2.4 recommendation.
   */
  issueLogoutToken(c: { sub: string; aud: string; sid: string }): string {
    const claims = { jti: this.random.uuid(), sid: c.sid, events: { [BACKCHANNEL_LOGOUT_EVENT]: {} } };
    return this.sign(claims, c.sub, c.aud, LOGOUT_TOKEN_TTL_SECONDS, 'logout+jwt');
  }

  /** The public key a token's kid names (a retired one too, while it is published). */
  #key = async (header: { kid?: string }) => {
    const key = await this.keys.publicKey(header.kid);
    if (!key) throw new errors.JWKSNoMatchingKey();
    return key;
  };

  /**
   * An ID token of ours given back as `id_token_hint` (on GET /authorize, and OIDC RP-Initiated Logout
   * §2): its signature and issuer must hold; an expired one still names its client and user. Undefined for
   * anything else.
   */
  async idTokenHint(token: string): Promise<{ aud: string; sub: string } | undefined> {
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, this.#key, {
        issuer: this.issuer,
        algorithms: ['RS256'],
        currentDate: this.clock.now(),
      }));
    } catch (err) {
      // jose checks the signature before the claims: an expired token's payload is ours.
      if (!(err instanceof errors.JWTExpired) || err.payload.iss !== this.issuer) return undefined;
      payload = err.payload;
    }
    const { aud, sub } = payload;
    return typeof aud === 'string' && typeof sub === 'string' ? { aud, sub } : undefined;
  }

  /**
   * Every token: RS256 with the current key's kid, typ JWT (D14; a logout token's own), iss = BASE_URL;
   * signed at once.
   */
  private sign(
    claims: Record<string, unknown>,
    sub: string,
    aud: string,
    ttlSeconds: number,
    typ: 'JWT' | 'logout+jwt' = 'JWT',
  ): string {
    const { kid, privateKey } = this.keys.signingKey();
    const iat = unixSeconds(this.clock.now());
    return signRs256Jwt(
      { typ, kid },
      { ...claims, iss: this.issuer, sub, aud, iat, exp: iat + ttlSeconds },
      privateKey,
    );
  }

  /**
   * INVALID_TOKEN for anything not ours or malformed, TOKEN_EXPIRED for ours and expired. Without an
   * audience any client's token passes; the caller then checks it against the token's session. An ID token
   * has the same keys, issuer, audience and typ; it is refused because it carries no `scope`.
   */
  async verify(token: string, audience?: string): Promise<AccessClaims> {
    try {
      const { payload } = await jwtVerify(token, this.#key, {
        issuer: this.issuer,
        audience,
        algorithms: ['RS256'],
        typ: 'JWT',
        currentDate: this.clock.now(),
      });
      if (
        typeof payload.sid !== 'string' ||
        typeof payload.sub !== 'string' ||
        typeof payload.scope !== 'string'
      ) {
        throw new errors.JWTClaimValidationFailed('missing claims', payload);
      }
      return payload as unknown as AccessClaims;
    } catch (err) {
      if (err instanceof errors.JWTExpired)
        throw new DomainError('TOKEN_EXPIRED', 'access token has expired');
      // A token of ours for another client (an OAuth client's, on the REST surface): say so, it is the fix.
      if (err instanceof errors.JWTClaimValidationFailed && err.claim === 'aud')
        throw new DomainError('INVALID_TOKEN', 'access token was issued to another client', {
          reason: 'audience',
          expected_audience: audience,
        });
      throw new DomainError('INVALID_TOKEN', 'access token is invalid');
    }
  }
}
