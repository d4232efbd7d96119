// Where one-time codes may go: every code Callsign sends costs its operator money, and SMS pumping sends codes
// to numbers whose operators share the fees.
//
// Rules it enforces:
// - A code goes only to a country the operator allows (`SMS_ALLOWED_COUNTRIES`; unset, every country) and
//   not to one they block (`SMS_BLOCKED_COUNTRIES`).
// - A number libphonenumber gives no region (satellite, international networks, global freephone and
//   premium: +881, +882, +883, +870, +979, +800, +808) counts under the key `001`, libphonenumber's region
//   for them, in every breaker, budget, metric and operator view; codes go there only when
//   `SMS_ALLOWED_COUNTRIES` names `001`.
// - A code never goes to a number whose type the operator refuses (`SMS_BLOCKED_NUMBER_TYPES`, by default
//   premium-rate, shared-cost, UAN, voicemail and pager numbers), as libphonenumber's full metadata types it;
//   a number it cannot type is not refused for its type.
// - The answer names the reason, so the person can use another number; nothing is sent and no code stored.
// - The configured test numbers are exempt (the caller does not ask for them).
import { type DestinationPolicy, NON_GEOGRAPHIC } from '../../config/sms-defence-settings.ts';
import { fieldError } from '../errors.ts';
import { phoneFacts } from '../phone.ts';

export type DestinationRefusal = 'country_not_allowed' | 'number_type_not_allowed';

/** Why a code may not go to this E.164 number; undefined when it may. */
export function destinationRefusal(e164: string, policy: DestinationPolicy): DestinationRefusal | undefined {
  const { country, type } = phoneFacts(e164);
  const nonGeographicRefused = country === NON_GEOGRAPHIC && !policy.allowedCountries?.has(NON_GEOGRAPHIC);
  if (nonGeographicRefused) return 'country_not_allowed';
  if (policy.allowedCountries && (!country || !policy.allowedCountries.has(country)))
    return 'country_not_allowed';
  if (country && policy.blockedCountries.has(country)) return 'country_not_allowed';
  if (type && policy.blockedNumberTypes.has(type)) return 'number_type_not_allowed';
  return undefined;
}

const REFUSAL_TEXT: Record<DestinationRefusal, string> = {
  country_not_allowed: 'codes are not sent to numbers of this country; use another number',
  number_type_not_allowed: 'codes are not sent to this kind of number; use a mobile number',
};

/** INVALID_PHONE, naming the reason a code may not go to a number. */
export const destinationError = (refusal: DestinationRefusal) =>
  fieldError('INVALID_PHONE', 'phone', REFUSAL_TEXT[refusal], { reason: refusal });

/** The block of 1,000 consecutive numbers a number is in: its E.164 form without the last three digits. */
export const numberBlock = (e164: string) => e164.slice(0, -3);
