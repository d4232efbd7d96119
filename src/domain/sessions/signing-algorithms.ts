import { generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { SIGNING_ALGS, type SigningAlg } from '../../config/oauth-settings.ts';

export { SIGNING_ALGS, type SigningAlg } from '../../config/oauth-settings.ts';

const generate = promisify(generateKeyPair);

/**
 * What this service verifies of what clients sign (client assertions, request objects, DPoP proofs): the
 * algorithms it signs with, and `Ed25519`, RFC 9864's fully specified name for EdDSA with Ed25519, which
 * newer libraries send.
 */
export const VERIFIED_ALGS = [...SIGNING_ALGS, 'Ed25519'] as const;

/** What a client gets when it registers no algorithm: RS256, so no verifier of today's tokens changes. */
export const DEFAULT_SIGNING_ALG: SigningAlg = 'RS256';

export const isSigningAlg = (value: unknown): value is SigningAlg =>
  typeof value === 'string' && (SIGNING_ALGS as readonly string[]).includes(value);

/** The algorithm a client registered, or RS256 for one it registered nothing (or nothing known) for. */
export const signingAlgOr = (value: string | null | undefined, fallback: SigningAlg = DEFAULT_SIGNING_ALG) =>
  isSigningAlg(value) ? value : fallback;

/** A new key pair for the algorithm: RSA-2048 for RS256 and PS256, P-256 for ES256, Ed25519 for EdDSA. */
export function newKeyPair(alg: SigningAlg): Promise<{ publicKey: KeyObject; privateKey: KeyObject }> {
  switch (alg) {
    case 'RS256':
    case 'PS256':
      return generate('rsa', { modulusLength: 2048 });
    case 'ES256':
      return generate('ec', { namedCurve: 'P-256' });
    case 'EdDSA':
      return generate('ed25519');
  }
}
