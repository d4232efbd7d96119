// A DPoP proof (RFC 9449 §4.3): what a client shows that it holds the key its tokens are bound to.
//
// Rules it enforces:
// - A proof is one JWT of `typ: dpop+jwt`, signed by RS256, PS256, ES256 or EdDSA (Ed25519) with the public key it
//   carries in its `jwk` header, which holds no private part (and never a shared secret).
// - It is for this request: `htm` is the request's method, `htu` its URL without query or fragment.
// - It is fresh: `iat` at most 60 s old and at most 10 s ahead of our clock, and its `jti` is used once per
//   key: the first request with it records it, every other one (also at the same moment) is refused.
// - At a resource, `ath` is the hash of the access token presented with it (§4.3 item 11).
// - Where this service requires nonces, it carries one this service gave within the last few minutes.
// - The key it proves is the one expected, where one is: a token's `cnf.jkt`, or a code's `dpop_jkt`.
import {
  calculateJwkThumbprint,
  decodeProtectedHeader,
  EmbeddedJWK,
  errors,
  type JWK,
  jwtVerify,
} from 'jose';
import type { Clock } from '../../providers/clock.ts';
import type { Database } from '../../storage/db.ts';
import { useJwtId } from '../../storage/rules/jwt-id-uses.ts';
import { sha256 } from '../crypto.ts';
import { VERIFIED_ALGS } from '../sessions/signing-algorithms.ts';
import { OAuthError } from './oauth-error.ts';

/** The oldest a proof's iat may be, and how far ahead of our clock. */
export const DPOP_PROOF_MAX_AGE_SECONDS = 60;
export const DPOP_CLOCK_AHEAD_SECONDS = 10;
/** Members of a JWK that belong to a private key or a secret. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

export interface DpopProofDeps {
  db: Database;
  clock: Clock;
  /** whether a nonce is required, and whether this one is one of ours still good */
  nonces: { required: boolean; isCurrent(nonce: unknown): boolean };
}

/** What the proof must be for: the request's method and URL, and at a resource the token and its key. */
export interface ProofExpected {
  method: string;
  url: string;
  accessToken?: string;
  jkt?: string;
}

const invalidProof = (why: string) => new OAuthError('invalid_dpop_proof', `DPoP proof refused: ${why}`);

/** The request's URL as `htu` names it: no query, no fragment (RFC 9449 §4.3 item 6, with RFC 3986 §6). */
function withoutQuery(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return undefined;
  }
}

/** The proof's header, checked before its signature: its type, algorithm, and a public key of its own. */
function checkedHeader(proof: string): JWK {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(proof);
  } catch {
    throw invalidProof('it is not a JWT');
  }
  if (header.typ !== 'dpop+jwt') throw invalidProof('typ must be dpop+jwt');
  if (!(VERIFIED_ALGS as readonly string[]).includes(String(header.alg)))
    throw invalidProof(`alg must be one of ${VERIFIED_ALGS.join(', ')}`);
  const jwk = header.jwk;
  if (!jwk || typeof jwk !== 'object' || PRIVATE_MEMBERS.some((member) => member in jwk))
    throw invalidProof('jwk must be the public key that signed it');
  return jwk;
}

/** Verifies a request's DPoP proof against what it must be for; answers the key's thumbprint (`jkt`). */
export async function verifyDpopProof(
  d: DpopProofDeps,
  proof: string,
  expected: ProofExpected,
): Promise<{ jkt: string }> {
  const jwk = checkedHeader(proof);
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(proof, EmbeddedJWK, { typ: 'dpop+jwt', algorithms: [...VERIFIED_ALGS] }));
  } catch (err) {
    throw invalidProof(err instanceof errors.JWSSignatureVerificationFailed ? 'bad signature' : 'unreadable');
  }
  const { htm, htu, iat, jti, ath, nonce } = payload;
  if (htm !== expected.method) throw invalidProof(`htm must be ${expected.method}`);
  if (typeof htu !== 'string' || withoutQuery(htu) !== withoutQuery(expected.url))
    throw invalidProof(`htu must be ${withoutQuery(expected.url)}`);
  const now = d.clock.now().getTime() / 1000;
  if (
    typeof iat !== 'number' ||
    now - iat > DPOP_PROOF_MAX_AGE_SECONDS ||
    iat - now > DPOP_CLOCK_AHEAD_SECONDS
  )
    throw invalidProof(`iat must be within ${DPOP_PROOF_MAX_AGE_SECONDS} s of now`);
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > 256) throw invalidProof('jti is required');
  if (expected.accessToken !== undefined && ath !== sha256(expected.accessToken))
    throw invalidProof('ath must be the hash of the access token sent with it');
  if (d.nonces.required && !d.nonces.isCurrent(nonce))
    throw new OAuthError('use_dpop_nonce', 'send this DPoP proof again with the nonce in DPoP-Nonce');
  const jkt = await calculateJwkThumbprint(jwk, 'sha256');
  if (expected.jkt !== undefined && jkt !== expected.jkt)
    throw invalidProof('it is not signed by the key the token is bound to');
  const keptUntil = new Date((iat + DPOP_PROOF_MAX_AGE_SECONDS + DPOP_CLOCK_AHEAD_SECONDS) * 1000);
  if (!(await useJwtId(d.db, `dpop:${jkt}`, jti, keptUntil))) throw invalidProof('its jti was used before');
  return { jkt };
}
