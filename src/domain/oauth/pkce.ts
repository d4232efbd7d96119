import { createHash } from 'node:crypto';
import { safeEqual } from '../crypto.ts';

/** RFC 7636 §4.1: 43-128 unreserved characters. */
export const isWellFormedVerifier = (v: unknown): v is string =>
  typeof v === 'string' && /^[A-Za-z0-9\-._~]{43,128}$/.test(v);

/** RFC 7636 §4.2: S256 challenges are base64url SHA-256 digests, 43 characters. */
export const isWellFormedChallenge = (c: unknown): c is string =>
  typeof c === 'string' && /^[A-Za-z0-9_-]{43}$/.test(c);

/** RFC 7636 §4.6: BASE64URL(SHA256(verifier)) == challenge. */
export const verifierMatches = (verifier: string, challenge: string) =>
  safeEqual(createHash('sha256').update(verifier).digest('base64url'), challenge);
