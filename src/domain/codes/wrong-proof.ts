// A proof of a number that failed by other means than a typed code counts as a wrong code: the mobile network
// saying the device holds another number takes one of the attempts of the number's live code for the purpose,
// where it has one, and, past OTP_MAX_ATTEMPTS, burns it, as a wrong code typed would (the storage rule's
// statement counts and burns).
import type { Clock } from '../../providers/clock.ts';
import type { Database } from '../../storage/db.ts';
import { submitCurrentOtp } from '../../storage/rules/otp-codes.ts';
import { OTP_MAX_ATTEMPTS } from './otp.ts';
import type { OtpPurpose } from './purposes.ts';

/** Counts one wrong attempt against the number's live code for the purpose, where there is one. */
export async function countWrongProof(d: { db: Database; clock: Clock }, phone: string, purpose: OtpPurpose) {
  // No submitted hash: nothing can match, so the statement counts it wrong.
  await submitCurrentOtp(d.db, {
    phone,
    purpose,
    submittedHashes: [],
    maxAttempts: OTP_MAX_ATTEMPTS,
    now: d.clock.now(),
  });
}
