// The user codes a person types on the device verification page (RFC 8628 §6.1).
//
// Rules it enforces:
// - A user code is 8 characters drawn uniformly from 20 consonants and no digits: without vowels no word is
//   spelt and no I or O is read as 1 or 0. 20^8 codes (about 34 bits), against 5 wrong tries per address in
//   15 minutes.
// - It is shown as XXXX-XXXX and accepted as typed in any case, with or without the dash and spaces; anything
//   else is not a user code and is never looked up.
// - It is stored only as its hash, of the one form all its typings share.
import type { Random } from '../../providers/random.ts';
import { sha256 } from '../crypto.ts';

/** RFC 8628 §6.1's example alphabet: base-20 consonants, without vowels or look-alikes. */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
export const USER_CODE_LENGTH = 8;

/** The largest byte below a multiple of the alphabet's size, so every character is equally likely. */
const UNBIASED_BELOW = 256 - (256 % USER_CODE_ALPHABET.length);

/** A new user code: as shown (XXXX-XXXX), and the hash it is stored as. */
export function newUserCode(random: Random): { shown: string; hash: string } {
  let code = '';
  while (code.length < USER_CODE_LENGTH) {
    for (const byte of random.bytes(USER_CODE_LENGTH * 2)) {
      if (byte >= UNBIASED_BELOW || code.length === USER_CODE_LENGTH) continue;
      code += USER_CODE_ALPHABET[byte % USER_CODE_ALPHABET.length];
    }
  }
  return { shown: `${code.slice(0, 4)}-${code.slice(4)}`, hash: userCodeHash(code) };
}

/** The one form every typing of a user code shares (capitals, no dash), or undefined for what cannot be one. */
export function normalUserCode(typed: string): string | undefined {
  if (typed.length > 40) return undefined;
  const code = typed.toUpperCase().replace(/[\s-]/g, '');
  if (code.length !== USER_CODE_LENGTH) return undefined;
  return [...code].every((ch) => USER_CODE_ALPHABET.includes(ch)) ? code : undefined;
}

/** What a user code is stored and looked up as. */
export const userCodeHash = (normal: string) => sha256(`user-code:${normal}`);
