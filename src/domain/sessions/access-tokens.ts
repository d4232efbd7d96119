import { constants, type KeyObject, sign } from 'node:crypto';
import { errors, jwtVerify } from 'jose';
import { type Clock, unixSeconds } from '../../providers/clock.ts';
import type { Random } from '../../providers/random.ts';
import { DomainError } from '../errors.ts';
import { type Authentication, authenticationClaims } from './authentication.ts';
import type { KeyRing } from './key-ring.ts';
import { SIGNING_ALGS, type SigningAlg } from './signing-algorithms.ts';

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
  /** RFC 9449 §6.1: the DPoP key the token is bound to, by its thumbprint */
  cnf?: { jkt: string };
}

/** OIDC Back-Channel Logout 1.0 §2.4: the member of a logout token's `events` claim. */
export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** How long a logout token is good for. */
export const LOGOUT_TOKEN_TTL_SECONDS = 120;

/**
 * Spec "Tokens" and D14: JWTs with iss, sub, aud, exp, iat, scope, and sid + jti on every token; access
 * tokens signed with ACCESS_TOKEN_ALG (RS256 unless set), ID and logout tokens with the client's algorithm.
 */
export class AccessTokens {
  constructor(
    private readonly keys: KeyRing,
    private readonly clock: Clock,
    private readonly random: Random,
    private readonly issuer: string,
    private readonly accessTokenAlg: SigningAlg = 'RS256',
  ) {}

  /** An access token of the session; it says when and how the session's sign-in was proved. */
  issue(c: {
    sub: string;
    aud: string;
    scope: string;
    sid: string;
    ttlSeconds: number;
    auth: Authentication;
    /** the DPoP key to bind it to */
    jkt?: string;
    /** the FAPI 2.0 profile applies: PS256 where ACCESS_TOKEN_ALG is RS256 */
    fapi?: boolean;
  }): string {
    const claims = {
      scope: c.scope,
      sid: c.sid,
      jti: this.random.uuid(),
      ...authenticationClaims(c.auth),
      ...(c.jkt ? { cnf: { jkt: c.jkt } } : {}),
    };
    const alg = c.fapi && this.accessTokenAlg === 'RS256' ? 'PS256' : this.accessTokenAlg;
    return this.sign(alg, claims, c.sub, c.aud, c.ttlSeconds);
  }

  /**
   * Spec "ID token claims": iss, sub, aud, exp, iat, and the given ones (auth_time, nonce, scope claims),
   * signed with the client's `id_token_signed_response_alg`.
   */
  issueIdToken(c: {
    sub: string;
    aud: string;
    ttlSeconds: number;
    claims: Record<string, unknown>;
    alg: SigningAlg;
  }): string {
    return this.sign(c.alg, c.claims, c.sub, c.aud, c.ttlSeconds);
  }

  /**
   * OIDC Core §5.3.2: a client that registered `userinfo_signed_response_alg` gets the userinfo claims as a
   * JWT of that algorithm, with iss and aud (and no exp: it is an answer, not a credential).
   */
  signUserinfo(c: { sub: string; aud: string; claims: Record<string, unknown>; alg: SigningAlg }): string {
    const { kid, privateKey } = this.keys.signingKey(c.alg);
    const payload = { ...c.claims, iss: this.issuer, sub: c.sub, aud: c.aud };
    return signJwt(c.alg, { kid, typ: 'JWT' }, payload, privateKey);
  }

  /**
   * An OIDC Back-Channel Logout 1.0 logout token (§2.4): the ended session's sid and its user, for its
   * client; the backchannel-logout event, no nonce; explicitly typed `logout+jwt` (§2.4, §4.1) so that it
   * can't pass as an ID token. It is made at each attempt, so it never reaches the client expired: the 2 minutes
   * are the §2.4 recommendation.
   */
  issueLogoutToken(c: { sub: string; aud: string; sid: string; alg: SigningAlg }): string {
    const claims = { jti: this.random.uuid(), sid: c.sid, events: { [BACKCHANNEL_LOGOUT_EVENT]: {} } };
    return this.sign(c.alg, claims, c.sub, c.aud, LOGOUT_TOKEN_TTL_SECONDS, 'logout+jwt');
  }

  /**
   * An ID token of ours given back as `id_token_hint` (on GET /authorize, and OIDC RP-Initiated Logout
   * §2): its signature and issuer must hold; an expired one still names its client and user. Undefined for
   * anything else.
   */
  async idTokenHint(token: string): Promise<{ aud: string; sub: string } | undefined> {
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, this.keys.verificationKey, {
        issuer: this.issuer,
        algorithms: [...SIGNING_ALGS],
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
   * Every token: the algorithm's current key and its kid, typ JWT (D14; a logout token's own), iss =
   * BASE_URL; signed at once.
   */
  private sign(
    alg: SigningAlg,
    claims: Record<string, unknown>,
    sub: string,
    aud: string,
    ttlSeconds: number,
    typ: 'JWT' | 'logout+jwt' = 'JWT',
  ): string {
    const { kid, privateKey } = this.keys.signingKey(alg);
    const iat = unixSeconds(this.clock.now());
    return signJwt(
      alg,
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
      const { payload } = await jwtVerify(token, this.keys.verificationKey, {
        issuer: this.issuer,
        audience,
        algorithms: [...SIGNING_ALGS],
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

/** The signature of `input` by the algorithm, in the form JWS carries it (RFC 7518 §3.4: R || S for ES256). */
function signature(alg: SigningAlg, input: Buffer, privateKey: KeyObject): Buffer {
  switch (alg) {
    case 'RS256':
      return sign('sha256', input, privateKey);
    case 'PS256':
      // RFC 7518 §3.5: MGF1 with SHA-256 and a salt as long as the hash.
      return sign('sha256', input, {
        key: privateKey,
        padding: constants.RSA_PKCS1_PSS_PADDING,
        saltLength: 32,
      });
    case 'ES256':
      return sign('sha256', input, { key: privateKey, dsaEncoding: 'ieee-p1363' });
    case 'EdDSA':
      return sign(null, input, privateKey);
  }
}

const base64urlJson = (value: Record<string, unknown>) =>
  Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A JWS in compact serialization (RFC 7515 §7.1), signed on the calling thread by node's OpenSSL, which is
 * what jose's WebCrypto signature runs too. jose hands each signature to the libuv pool: a job, a thread
 * woken and one waking the event loop again, about 0.04 CPU ms a signature more, a sixth of what an RSA
 * signature itself costs. jose still verifies every token and exports the keys.
 */
export function signJwt(
  alg: SigningAlg,
  header: { kid: string; typ: string },
  payload: Record<string, unknown>,
  privateKey: KeyObject,
): string {
  const input = `${base64urlJson({ alg, ...header })}.${base64urlJson(payload)}`;
  return `${input}.${signature(alg, Buffer.from(input), privateKey).toString('base64url')}`;
}

/** An RS256 JWS (RSASSA-PKCS1-v1_5 with SHA-256), as every token was before other algorithms came. */
export const signRs256Jwt = (
  header: { kid: string; typ: 'JWT' | 'logout+jwt' },
  payload: Record<string, unknown>,
  privateKey: KeyObject,
) => signJwt('RS256', header, payload, privateKey);
