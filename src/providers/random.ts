import { randomBytes, randomInt, randomUUID } from 'node:crypto';

// Randomness comes from the crypto RNG through one interface, so the code that needs it says so.
export interface Random {
  uuid(): string;
  bytes(n: number): Buffer;
  /** base64url of n random bytes */
  token(bytes: number): string;
  /** n decimal digits, each uniform */
  digits(n: number): string;
}

export const cryptoRandom: Random = {
  uuid: () => randomUUID(),
  bytes: (n) => randomBytes(n),
  token: (bytes) => randomBytes(bytes).toString('base64url'),
  digits: (n) => Array.from({ length: n }, () => randomInt(10)).join(''),
};
