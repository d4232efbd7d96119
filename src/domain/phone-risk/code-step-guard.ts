// When a code to the number does not sign in or reset the PIN by itself.
//
// Rules it enforces:
// - Before a code is accepted for a sign-in or a PIN reset, the number's SIM must not have changed within
//   SIM_SWAP_MAX_AGE hours: a swap refuses the step with reason "sim_swap".
// - With NUMBER_RECYCLING_CHECK, an account that last proved its number more than RECYCLING_AFTER_DAYS ago
//   (or, never having proved it here, was created that long ago) is checked for a recycled number since that
//   day: a recycled number refuses the step with reason "number_recycled" and flags the account.
// - An answer the provider could not give goes on under SIM_CHECK_FAIL=open and refuses the step with reason
//   "sim_check_unavailable" under SIM_CHECK_FAIL=closed; an unknown answer is never taken as safe.
// - A number outside SIM_CHECK_COUNTRIES, and an account an operator cleared (until the clearance ends), is
//   not checked.
import type { SimCheckSettings } from '../../config/sim-check-settings.ts';
import type { PhoneProofRow } from '../../storage/repositories/phone-risk.ts';
import type { UserRow } from '../../storage/repositories/users.ts';
import { phoneFacts } from '../phone.ts';

export const RECYCLING_AFTER_DAYS = 90;
const DAY_MS = 86_400_000;

export type RiskReason = 'sim_swap' | 'number_recycled' | 'sim_check_unavailable';

const OUTCOMES = ['swapped', 'not_swapped', 'recycled', 'not_recycled', 'unknown'] as const;
export type CheckOutcome = (typeof OUTCOMES)[number];

/** An outcome as stored; anything else reads as unknown. */
export const outcomeOf = (stored: string): CheckOutcome =>
  OUTCOMES.find((outcome) => outcome === stored) ?? 'unknown';

/** Whether the number is checked at all for this account now. */
export function checked(
  settings: SimCheckSettings,
  phone: string,
  proof: PhoneProofRow | undefined,
  now: Date,
) {
  if (proof?.cleared_until && proof.cleared_until > now) return false;
  const country = phoneFacts(phone).country;
  return !settings.countries || (country !== undefined && settings.countries.has(country));
}

/** The day the recycling check asks about, when the number was proved long enough ago to ask. */
export function recyclingDate(
  settings: SimCheckSettings,
  account: UserRow,
  proof: PhoneProofRow | undefined,
  now: Date,
): Date | undefined {
  if (!settings.recyclingCheck) return undefined;
  const provenAt = proof?.proven_at ?? account.created_at;
  return now.getTime() - provenAt.getTime() > RECYCLING_AFTER_DAYS * DAY_MS ? provenAt : undefined;
}

/** The refusal an answer calls for, if any. */
export function refusalFor(settings: SimCheckSettings, outcome: CheckOutcome): RiskReason | undefined {
  if (outcome === 'swapped') return 'sim_swap';
  if (outcome === 'recycled') return 'number_recycled';
  if (outcome === 'unknown' && settings.failClosed) return 'sim_check_unavailable';
  return undefined;
}
