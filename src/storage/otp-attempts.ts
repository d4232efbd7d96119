// One submission of a one-time code, decided and recorded by one statement.
//
// Rules:
// - A code is used once: the submission that matches sets consumed_at, and of parallel correct
//   submissions exactly one does so; the others find the code used.
// - Only wrong submissions count toward the code's attempts: a correct one is never lost because
//   its own duplicates, sent at the same moment, counted first.
// - After OTP_MAX_ATTEMPTS wrong submissions, the next submission, right or wrong, burns the code
//   (consumed_at set, nothing matched) and is told to request a new one.
// - An expired or used code is not touched.
// - Decoy codes (stored where no code was sent, so that enumeration protection answers alike) are
//   ordinary rows whose hash no code matches: they count and burn the same way.
import { maybeOne, type Queryable } from './db.ts';

/** What one submission did to the code. */
export type OtpAttemptOutcome =
  | { kind: 'used' }
  | { kind: 'wrong'; attemptsRemaining: number }
  | { kind: 'burnt' }
  /** no live code by that id: used, burnt or expired meanwhile */
  | { kind: 'gone' };

export interface OtpSubmission {
  otpId: string;
  /** the keyed hashes of the submitted code, one per key a stored code may have been hashed with */
  submittedHashes: string[];
  maxAttempts: number;
  now: Date;
}

const SUBMIT_CODE = `
  UPDATE otps SET
    attempts = attempts + CASE WHEN code_hash = ANY($2::text[]) AND attempts < $3 THEN 0 ELSE 1 END,
    consumed_at = CASE
      WHEN code_hash = ANY($2::text[]) AND attempts < $3 THEN $4::timestamptz
      WHEN attempts >= $3 THEN $4::timestamptz
      ELSE NULL END
  WHERE id = $1 AND consumed_at IS NULL AND expires_at > $4
  RETURNING attempts, consumed_at IS NOT NULL AS spent`;

export async function submitOtp(q: Queryable, s: OtpSubmission): Promise<OtpAttemptOutcome> {
  const row = await maybeOne<{ attempts: number; spent: boolean }>(q, SUBMIT_CODE, [
    s.otpId,
    s.submittedHashes,
    s.maxAttempts,
    s.now,
  ]);
  if (!row) return { kind: 'gone' };
  if (!row.spent) return { kind: 'wrong', attemptsRemaining: s.maxAttempts - row.attempts };
  // A match leaves the count as it was (at most the maximum); a burn takes it past the maximum.
  return row.attempts > s.maxAttempts ? { kind: 'burnt' } : { kind: 'used' };
}
