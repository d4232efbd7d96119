import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { NON_GEOGRAPHIC } from '../config/sms-defence-settings.ts';
import { fieldError } from './errors.ts';

export interface Phone {
  e164: string;
  /** ISO 3166-1 alpha-2 region of the number, or null for non-geographic numbers */
  country: string | null;
}

/** Accept any spelling libphonenumber understands in international form, store E.164. */
export function parsePhone(input: unknown): Phone {
  const parsed =
    typeof input === 'string' && input.length <= 40 ? parsePhoneNumberFromString(input) : undefined;
  if (!parsed?.isPossible() || !parsed.isValid() || !input?.toString().trim().startsWith('+')) {
    throw fieldError(
      'INVALID_PHONE',
      'phone',
      'phone must be a valid number in international format, e.g. +14155550100',
    );
  }
  return { e164: parsed.number, country: parsed.country ?? null };
}

/**
 * A number as a person types it beside a country picker: in international form (`+…`) whatever the country,
 * or in the country's own national form (`98765 43210` with IN).
 */
export function parsePhoneIn(input: unknown, country: CountryCode | undefined): Phone {
  if (typeof input !== 'string' || !country || input.trim().startsWith('+')) return parsePhone(input);
  const national = input.length <= 40 ? parsePhoneNumberFromString(input, country) : undefined;
  return parsePhone(national?.number ?? input);
}

/** "+14155550100" -> "+1******0100": enough for the owner to recognise, too little to harvest. */
export function maskPhone(e164: string): string {
  const cc = parsePhoneNumberFromString(e164)?.countryCallingCode ?? '';
  const rest = e164.slice(1 + cc.length);
  return `+${cc}${'*'.repeat(Math.max(0, rest.length - 4))}${rest.slice(-4)}`;
}

/** What libphonenumber says of a number, remembered for the numbers seen lately (each send asks more than once). */
const remembered = new Map<string, { country?: string; type?: string }>();
const REMEMBERED_MAX = 10_000;

/**
 * An E.164 number's country and type as libphonenumber's full metadata gives them. A number with no region
 * (satellite, international networks, global freephone and premium) has the country `001`, libphonenumber's
 * region for them; a number libphonenumber cannot read has neither.
 */
export function phoneFacts(e164: string): { country?: string; type?: string } {
  let known = remembered.get(e164);
  if (!known) {
    const number = parsePhoneNumberFromString(e164);
    const country = number?.country ?? (number ? NON_GEOGRAPHIC : undefined);
    known = { country, type: number?.getType() };
    if (remembered.size >= REMEMBERED_MAX) remembered.clear();
    remembered.set(e164, known);
  }
  return known;
}

/** The country of an E.164 number: its region, or `001` for a number with none. */
export const countryOf = (e164: string): string | undefined => phoneFacts(e164).country;
