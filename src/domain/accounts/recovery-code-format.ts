// What a recovery code is.
//
// Rules it enforces:
// - A code is 10 characters of Crockford's base32 (50 bits from the crypto RNG), shown as `xxxxx-xxxxx`.
// - A set is 10 codes.
// - What a person types is read leniently: spaces, hyphens and letter case are ignored, and the letters
//   Crockford's alphabet leaves out for looking like digits are read as those digits (O as 0; I and L as 1).
//   Anything else is not a code.
import type { Random } from '../../providers/random.ts';

export const CODES_PER_SET = 10;
const CODE_LENGTH = 10;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const LOOK_ALIKES: Record<string, string> = { O: '0', I: '1', L: '1' };

/** A new code, as shown: `xxxxx-xxxxx`. */
export function newRecoveryCode(random: Random): string {
  const bytes = random.bytes(7); // 56 bits, of which the first 50 are used
  let bits = 0n;
  for (const byte of bytes) bits = (bits << 8n) | BigInt(byte);
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CROCKFORD[Number((bits >> BigInt(51 - 5 * i)) & 31n)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** The code a person typed, as it is hashed (10 characters of the alphabet); undefined when it is not one. */
export function normalRecoveryCode(typed: string): string | undefined {
  const code = [...typed.replace(/[\s-]/g, '').toUpperCase()].map((c) => LOOK_ALIKES[c] ?? c).join('');
  return code.length === CODE_LENGTH && [...code].every((c) => CROCKFORD.includes(c)) ? code : undefined;
}
