// A relying party's check of the Security Event Tokens Callsign's Shared Signals transmitter delivers: signed
// by the service's current keys, issued by it, for this client, typed `secevent+jwt` (so no other token of the
// service passes as one), and carrying exactly one event.
import { errors, type JWTPayload, jwtVerify } from 'jose';
import { keySetAt } from './access-tokens.js';
import { CallsignError, CallsignNetworkError } from './errors.js';

export interface SecurityEventOptions {
  /** the service's address (its BASE_URL), which issues the SETs */
  issuer: string;
  /** your client's id: the SETs of its streams are for it */
  audience: string;
  /** where the keys are; `{issuer}/.well-known/jwks.json` by default */
  jwksUrl?: string;
}

/**
 * A SET's subject (RFC 9493): `iss_sub` for an account, `phone_number` (the previous number) for a number moved,
 * `opaque` (the stream) for a verification or a stream's status changed.
 */
export type SecuritySubject =
  | { format: 'iss_sub'; iss: string; sub: string }
  | { format: 'phone_number'; phone_number: string }
  | { format: 'opaque'; id: string }
  | { format: string; [member: string]: unknown };

export interface SecurityEvent {
  /** the event's id: acknowledge it by this */
  jti: string;
  /** when the event happened (Unix seconds) */
  iat: number;
  subject: SecuritySubject;
  /** the event's type: a CAEP, RISC or SSF URI, or Callsign's own phone-risk URN */
  type: string;
  /** its members (e.g. `credential_type`, `change_type`, `initiating_entity`, `reason`) */
  event: Record<string, unknown>;
  claims: JWTPayload;
}

const SET_TYPE = 'secevent+jwt';

/** The SET's event; a CallsignError (INVALID_TOKEN, status 401) when it does not pass. */
export async function verifySecurityEvent(
  token: string,
  options: SecurityEventOptions,
): Promise<SecurityEvent> {
  const issuer = options.issuer.replace(/\/+$/, '');
  const keys = keySetAt(options.jwksUrl ?? `${issuer}/.well-known/jwks.json`);
  try {
    const { payload } = await jwtVerify(token, keys, {
      issuer,
      audience: options.audience,
      typ: SET_TYPE,
      algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
      requiredClaims: ['jti', 'iat'],
    });
    const events = payload.events;
    const subject = payload.sub_id;
    if (typeof events !== 'object' || events === null || typeof subject !== 'object' || subject === null)
      throw new CallsignError('INVALID_TOKEN', 'not a security event token', 401);
    const entries = Object.entries(events as Record<string, unknown>);
    if (entries.length !== 1 || typeof entries[0][1] !== 'object' || entries[0][1] === null)
      throw new CallsignError('INVALID_TOKEN', 'a security event token carries one event', 401);
    const [[type, event]] = entries;
    return {
      jti: payload.jti as string,
      iat: payload.iat as number,
      subject: subject as SecuritySubject,
      type,
      event: event as Record<string, unknown>,
      claims: payload,
    };
  } catch (err) {
    if (err instanceof CallsignError) throw err;
    if (err instanceof errors.JWKSTimeout || !(err instanceof errors.JOSEError))
      throw new CallsignNetworkError('the signing keys could not be fetched', { cause: err });
    throw new CallsignError('INVALID_TOKEN', `the security event token does not pass: ${err.message}`, 401);
  }
}
