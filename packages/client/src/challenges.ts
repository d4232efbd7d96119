// The proof of work a code send may ask for (ALTCHA v1): find the number whose SHA-256 with the challenge's
// salt is the challenge, and answer it with the challenge's own fields, base64-encoded.
import type { Challenge } from './api-types.js';
import type { Transport } from './transport.js';

export interface ProofOfWork {
  algorithm: string;
  challenge: string;
  salt: string;
  signature: string;
  maxnumber?: number;
}

/** A challenge when no maximum is given: ALTCHA's own default. */
const DEFAULT_MAX_NUMBER = 1_000_000;

const isProofOfWork = (value: unknown): value is ProofOfWork => {
  const v = value as Partial<Record<keyof ProofOfWork, unknown>> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.algorithm === 'string' &&
    typeof v.challenge === 'string' &&
    typeof v.salt === 'string' &&
    typeof v.signature === 'string'
  );
};

const hex = (bytes: ArrayBuffer) =>
  Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

/** The challenge's answer, to send as `challengeSolution`. */
export async function solveChallenge(challenge: unknown): Promise<string> {
  if (!isProofOfWork(challenge))
    throw new TypeError('not a proof-of-work challenge (a hosted CAPTCHA is solved by its own widget)');
  if (challenge.algorithm !== 'SHA-256') throw new TypeError(`unsupported algorithm ${challenge.algorithm}`);
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new TypeError('solving a challenge needs crypto.subtle (Web Crypto)');
  const encoder = new TextEncoder();
  const max = challenge.maxnumber ?? DEFAULT_MAX_NUMBER;
  for (let number = 0; number <= max; number++) {
    const digest = await subtle.digest('SHA-256', encoder.encode(challenge.salt + number));
    if (hex(digest) !== challenge.challenge) continue;
    const { algorithm, salt, signature } = challenge;
    return btoa(JSON.stringify({ algorithm, challenge: challenge.challenge, number, salt, signature }));
  }
  throw new TypeError('the challenge has no answer');
}

export const challengeMethods = (transport: Transport) => ({
  /** A new challenge for a send that will ask for one, or the CAPTCHA the service shows instead. */
  get: (): Promise<Challenge> => transport.call('get', '/auth/challenge'),
  /** The answer to a challenge: `get()`'s, or a CHALLENGE_REQUIRED error's `details.challenge`. */
  solve: solveChallenge,
});
