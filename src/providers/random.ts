import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { v7 as uuidV7 } from 'uuid';

// Randomness comes from the crypto RNG through one interface, so the code that needs it says so.
export interface Random {
  uuid(): string;
  /**
   * An id for a row written at request rate (sessions, events, messages, codes): a UUID version 7, whose
   * leading bits are the time it was made, so each new row's index entry lands at the right edge of its
   * index, in memory, instead of on a random page of an index larger than memory. Its 74 random bits keep
   * it unguessable; it tells only when the row was made, which its row says anyway.
   */
  timeOrderedId(): string;
  bytes(n: number): Buffer;
  /** base64url of n random bytes */
  token(bytes: number): string;
  /** n decimal digits, each uniform */
  digits(n: number): string;
}

export const cryptoRandom: Random = {
  uuid: () => randomUUID(),
  timeOrderedId: () => uuidV7(),
  bytes: (n) => randomBytes(n),
  token: (bytes) => randomBytes(bytes).toString('base64url'),
  digits: (n) => Array.from({ length: n }, () => randomInt(10)).join(''),
};
