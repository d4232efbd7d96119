// The limits a request for a code is counted against before anything else is asked of it, on every surface that
// sends one (the REST sends, a phone change, the silent check's start, the hosted pages, the account page).
// They are counted together, in one round trip to the counters, so a request refused by one of them has
// counted against all of them.
//
// Rules it enforces:
// - Every request for a code counts against its client address (`otp_send_address`, 10 an hour).
// - A request that names a number counts against that number (`otp_send_phone`, 3 an hour).
// - It counts against the number's block of 1,000 consecutive numbers too (`otp_send_prefix`, 10 an hour),
//   unless codes may not go to the number at all (destinations.ts: the send is refused for that) or it is a
//   configured test number (no message goes to it).
import type { Config } from '../../config/config.ts';
import type { RateLimitName } from '../../config/rate-limits.ts';
import type { DestinationPolicy } from '../../config/sms-defence-settings.ts';
import { destinationRefusal, numberBlock } from './destinations.ts';

/** What decides whether a number's block is counted. */
export interface BlockCounting {
  /** where codes may go */
  destinations: DestinationPolicy;
  /** the configured test numbers, with their fixed codes */
  testPhoneNumbers: ReadonlyMap<string, string>;
}

/** The service's settings that decide it. */
export const blockCounting = (
  config: Pick<Config, 'smsDestinations' | 'testPhoneNumbers'>,
): BlockCounting => ({
  destinations: config.smsDestinations,
  testPhoneNumbers: config.testPhoneNumbers,
});

/** The number's block of numbers, when a request for a code to it counts against one. */
function countedBlock(e164: string, counting: BlockCounting): string | undefined {
  const isTestNumber = counting.testPhoneNumbers.has(e164);
  const refusedDestination = destinationRefusal(e164, counting.destinations) !== undefined;
  if (isTestNumber || refusedDestination) return undefined;
  return numberBlock(e164);
}

/** The limits a request for a code from `address` to the E.164 number `phone` (if it names one) counts against. */
export function codeSendLimits(
  address: string,
  phone: string | undefined,
  counting: BlockCounting,
): Array<[RateLimitName, string]> {
  const limits: Array<[RateLimitName, string]> = [['otp_send_address', address]];
  if (!phone) return limits;
  limits.push(['otp_send_phone', phone]);
  const block = countedBlock(phone, counting);
  if (block) limits.push(['otp_send_prefix', block]);
  return limits;
}
