// How recovery codes are kept and compared.
//
// Rules it enforces:
// - A code is 50 random bits (recovery-code-format.ts), so a keyed fast hash guards it: each set has a random
//   key of its own, sealed with a key derived from KEY_ENCRYPTION_KEY (never stored in the clear, sealed again
//   by `callsign keys reencrypt`), and each code is kept as HMAC-SHA-256 under it. Making a set costs no PIN
//   hashing, so it cannot hold up other people's PIN checks.
// - A set made before keyed hashes keeps its argon2id hashes (with the set's salt) and works until replaced.
// - A number without a set, or without an account, costs the same kind of work as one with a set, so the
//   time of an answer does not tell which numbers have codes.
import type { Random } from '../../providers/random.ts';
import { hmac } from '../crypto.ts';
import type { PurposeKeys } from '../purpose-keys.ts';
import type { PinHasher } from './pin-hasher.ts';

const SET_KEY_BYTES = 32;
/** the longest text hashed for a code typed that is not one (so a long paste costs no more) */
const LONGEST_TYPED = 64;

/** How a set's codes are hashed: its sealed key, or the salt of a set made before keyed hashes. */
export interface SetHashing {
  code_key_enc: string | null;
  salt: Uint8Array | null;
}

export class RecoveryCodeHashes {
  constructor(
    private readonly d: {
      /** the keys that seal each set's own key */
      setKeys: PurposeKeys;
      random: Random;
      /** for sets made before keyed hashes */
      pins: PinHasher;
    },
  ) {}

  /** A new set's sealed key, and each code's hash under it. */
  newSet(codes: string[]): { codeKeyEnc: string; hashes: string[] } {
    const key = this.d.random.bytes(SET_KEY_BYTES);
    return {
      codeKeyEnc: this.d.setKeys.seal(key),
      hashes: codes.map((code) => keyedHash(key, code)),
    };
  }

  /** The hash a typed code (normalised; undefined when malformed) would be kept as in this set. */
  async hashOf(set: SetHashing | undefined, typed: string, normal: string | undefined): Promise<string> {
    const text = normal ?? typed.slice(0, LONGEST_TYPED);
    if (set?.code_key_enc) return keyedHash(this.d.setKeys.open(set.code_key_enc), text);
    if (set?.salt) return this.d.pins.hashWithSalt(text, set.salt);
    // No set to compare with: the same keyed work, under a key nobody holds.
    return keyedHash(this.d.random.bytes(SET_KEY_BYTES), text);
  }
}

const keyedHash = (key: Buffer, code: string) => `hmac:${hmac(key, code).toString('base64url')}`;
