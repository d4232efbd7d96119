// The handle an imported account gets: its own when that is a valid handle no other account has, else one made
// from its name (letters and digits, accents dropped) or `user`, with random characters so it is free.
import type { Random } from '../../providers/random.ts';
import { handleProblem } from '../profiles/handle-rules.ts';

/** How much of the name a made handle keeps, leaving room for `_` and the random part within 30 characters. */
const NAME_PART_MAX = 21;
const RANDOM_PART = 8;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Letters and digits of a name, lower case, accents dropped, runs of anything else as one `_`. */
function nameSlug(name: string | null): string {
  const slug = (name ?? '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, NAME_PART_MAX)
    .replace(/_+$/, '');
  return /^[a-z]/.test(slug) ? slug : 'user';
}

/** A handle made from the name, with random characters after it. */
export function madeHandle(name: string | null, random: Random): string {
  const suffix = Array.from(random.bytes(RANDOM_PART), (b) => ALPHABET[b % ALPHABET.length]).join('');
  return `${nameSlug(name)}_${suffix}`;
}

/** The given handle when it is one the rules accept (free or not is asked of the accounts). */
export const acceptableHandle = (given: string | null): string | null =>
  given !== null && handleProblem(given) === null ? given : null;
