import { createHash, type KeyObject, randomBytes, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import {
  askVendor,
  type Deadline,
  deadlineIn,
  failureOf,
  fieldOf,
  refusalOf,
} from '../sim-check/sim-check.ts';
import {
  hashedNumber,
  NETWORK_CHECK_DEADLINE_MS,
  type NetworkAnswer,
  type NetworkVerifier,
  NetworkRefusal as Refused,
} from './network-verifier.ts';

// GSMA CAMARA Number Verification (v2) through an operator or an aggregator, as CAMARA's identity and consent
// profile has it:
// - Front channel: the device is sent over its mobile data to the operator's authorization endpoint (found by
//   OpenID discovery at the issuer) with `prompt=none`, a `tel:` login hint, the purpose and the scope, a
//   state, a nonce and PKCE (S256). The code that comes back is exchanged with `private_key_jwt`.
// - Back channel: an app that holds a TS.43 operator token sends it; it is exchanged with the JWT bearer
//   grant (an assertion whose subject is `operatortoken:<token>`), with `private_key_jwt` as well.
// Either token (single use, 300 s at most) calls `POST {apiRoot}/verify` once, with an `x-correlator`.
// An error at the callback (`login_required`: the device is not on the operator's data network) or a 403
// "not authenticated by the mobile network" is `unavailable`; any other refusal, a malformed answer or no
// answer within the check's deadline is `error`.

export interface CamaraNumberVerificationSettings {
  /** the operator's OpenID issuer: its endpoints come from its discovery document */
  issuer: string;
  /** the Number Verification API root, e.g. https://api.example.com/number-verification/v2 */
  apiRoot: string;
  clientId: string;
  /** send the SHA-256 of the number instead of the number */
  hashed: boolean;
}

/** Callsign's own key for `private_key_jwt`; its public half is what the operator registers. */
export interface ClientKey {
  kid: string;
  privateKey: KeyObject;
}

/** What the front channel keeps between sending the device out and its coming back. */
export interface CamaraPending {
  codeVerifier: string;
  nonce: string;
}

/** The purpose and the scope every request names. */
export const CAMARA_SCOPE = 'openid dpv:FraudPreventionAndDetection number-verification:verify';
const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** CAMARA refuses assertions that live longer. */
const ASSERTION_SECONDS = 300;
/** The discovery document is read again after this long. */
const DISCOVERY_SECONDS = 3600;
const NOT_ON_MOBILE_NETWORK = 'NUMBER_VERIFICATION.USER_NOT_AUTHENTICATED_BY_MOBILE_NETWORK';

interface Endpoints {
  authorization: string;
  token: string;
}

export class CamaraNumberVerification implements NetworkVerifier {
  readonly name = 'camara' as const;
  readonly returns = 'query' as const;
  #endpoints: { value: Endpoints; until: number } | undefined;

  constructor(
    private readonly s: CamaraNumberVerificationSettings,
    private readonly key: ClientKey,
    private readonly now: () => Date,
    private readonly deadlineMs = NETWORK_CHECK_DEADLINE_MS,
  ) {}

  /** Where to send the device, and what to keep for its return. Throws when discovery fails. */
  async authorizationUrl(phone: string, redirectUri: string, state: string) {
    const { authorization } = await this.endpoints(deadlineIn(this.deadlineMs));
    const pending: CamaraPending = {
      codeVerifier: randomBytes(32).toString('base64url'),
      nonce: randomBytes(16).toString('base64url'),
    };
    const url = new URL(authorization);
    for (const [name, value] of Object.entries({
      response_type: 'code',
      client_id: this.s.clientId,
      redirect_uri: redirectUri,
      scope: CAMARA_SCOPE,
      state,
      nonce: pending.nonce,
      prompt: 'none',
      login_hint: `tel:${phone}`,
      code_challenge: createHash('sha256').update(pending.codeVerifier).digest('base64url'),
      code_challenge_method: 'S256',
    }))
      url.searchParams.set(name, value);
    return { url: url.toString(), pending };
  }

  /** The device came back to the callback with a code or an error: the code's token verifies the number. */
  async finish(
    phone: string,
    pendingKept: object,
    redirectUri: string,
    callback: { code?: string; error?: string },
  ): Promise<NetworkAnswer> {
    if (callback.error) return { outcome: 'unavailable', detail: callback.error.slice(0, 64) };
    if (!callback.code) return { outcome: 'error', detail: 'no code at the callback' };
    const code = callback.code;
    const pending = pendingKept as Partial<CamaraPending>;
    const codeVerifier = pending.codeVerifier;
    if (typeof codeVerifier !== 'string') return { outcome: 'error', detail: 'no pending check' };
    return this.checked(async (deadline) => {
      const fields = {
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: codeVerifier,
      };
      return this.verifyWith(await this.token(fields, deadline), phone, deadline);
    });
  }

  /** An app's TS.43 operator token, exchanged by the JWT bearer grant: its token verifies the number. */
  verifyOperatorToken(phone: string, operatorToken: string): Promise<NetworkAnswer> {
    return this.checked(async (deadline) => {
      const { token } = await this.endpoints(deadline);
      const assertion = await this.assertion(token, `operatortoken:${operatorToken}`, {
        scope: CAMARA_SCOPE,
      });
      const answer = await this.token({ grant_type: JWT_BEARER, assertion }, deadline);
      return this.verifyWith(answer, phone, deadline);
    });
  }

  /** One check within one deadline; a failure on the way is `error` (or what the token's refusal says). */
  private async checked(run: (deadline: Deadline) => Promise<NetworkAnswer>): Promise<NetworkAnswer> {
    try {
      return await run(deadlineIn(this.deadlineMs));
    } catch (err) {
      return err instanceof Refused ? err.answer : { outcome: 'error', detail: failureOf(err) };
    }
  }

  private async verifyWith(accessToken: string, phone: string, deadline: Deadline): Promise<NetworkAnswer> {
    const body = this.s.hashed ? { hashedPhoneNumber: hashedNumber(phone) } : { phoneNumber: phone };
    const answer = await askVendor(
      `${this.s.apiRoot}/verify`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${accessToken}`,
          'content-type': 'application/json',
          'x-correlator': randomUUID(),
        },
        body: JSON.stringify(body),
      },
      { deadline },
    );
    const verified = fieldOf(answer.body, 'devicePhoneNumberVerified');
    if (answer.status === 200 && typeof verified === 'boolean')
      return { outcome: verified ? 'verified' : 'other_number' };
    if (answer.status === 403 && fieldOf(answer.body, 'code') === NOT_ON_MOBILE_NETWORK)
      return { outcome: 'unavailable', detail: refusalOf(answer) };
    return { outcome: 'error', detail: `verify ${refusalOf(answer)}` };
  }

  /** A token from the token endpoint, the client authenticated by `private_key_jwt`. */
  private async token(fields: Record<string, string>, deadline: Deadline): Promise<string> {
    const { token } = await this.endpoints(deadline);
    const answer = await askVendor(
      token,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          ...fields,
          client_id: this.s.clientId,
          client_assertion_type: ASSERTION_TYPE,
          client_assertion: await this.assertion(token, this.s.clientId),
        }).toString(),
      },
      { deadline },
    );
    const value = fieldOf(answer.body, 'access_token');
    if (answer.status === 200 && typeof value === 'string') return value;
    // An operator token or a code the operator does not take: the network cannot say, a code will.
    const error = fieldOf(answer.body, 'error');
    if (answer.status === 400 && error === 'invalid_grant')
      throw new Refused({ outcome: 'unavailable', detail: 'token 400 invalid_grant' });
    throw new Refused({ outcome: 'error', detail: `token ${answer.status}${error ? ` ${error}` : ''}` });
  }

  /** A JWT signed by Callsign's key for `audience` (the endpoint it is sent to), about `subject`. */
  private assertion(audience: string, subject: string, extra: Record<string, string> = {}): Promise<string> {
    const iat = Math.floor(this.now().getTime() / 1000);
    return new SignJWT({ ...extra, jti: randomUUID() })
      .setProtectedHeader({ alg: 'RS256', kid: this.key.kid, typ: 'JWT' })
      .setIssuer(this.s.clientId)
      .setSubject(subject)
      .setAudience(audience)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ASSERTION_SECONDS)
      .sign(this.key.privateKey);
  }

  /** The operator's endpoints from its discovery document, kept an hour. */
  private async endpoints(deadline: Deadline): Promise<Endpoints> {
    const now = this.now().getTime();
    if (this.#endpoints && this.#endpoints.until > now) return this.#endpoints.value;
    const issuer = this.s.issuer.replace(/\/$/, '');
    const answer = await askVendor(
      `${issuer}/.well-known/openid-configuration`,
      { method: 'GET', headers: { accept: 'application/json' } },
      { deadline },
    );
    const authorization = fieldOf(answer.body, 'authorization_endpoint');
    const token = fieldOf(answer.body, 'token_endpoint');
    if (answer.status !== 200 || typeof authorization !== 'string' || typeof token !== 'string')
      throw new Refused({ outcome: 'error', detail: `discovery ${answer.status}` });
    const value = { authorization, token };
    this.#endpoints = { value, until: now + DISCOVERY_SECONDS * 1000 };
    return value;
  }
}
