// One-time codes: storing a phone's code, withdrawing one that was never delivered, and one submission of a
// code, each decided and recorded by one statement.
//
// Rules it enforces:
// - A phone has at most one live code per purpose: storing a new one ends the one before (in the same
//   statement), so only the latest code sent works.
// - A code whose text message could not be sent is withdrawn at once: no usable code is left behind.
// - A code is used once: the submission that matches sets consumed_at (and verified_at, which only a match
//   sets), and of parallel correct submissions exactly one does so; the others find the code used.
// - Only wrong submissions count toward the code's attempts: a correct one is never lost because
//   its own duplicates, sent at the same moment, counted first.
// - After OTP_MAX_ATTEMPTS wrong submissions, the next submission, right or wrong, burns the code
//   (consumed_at set, nothing matched) and is told to request a new one.
// - An expired or used code is not touched.
// - Decoy codes (stored where no code was sent, so that enumeration protection answers alike) are
//   ordinary rows whose hash no code matches: they count and burn the same way.
// - What a match leads to (its country's verified count, the temp token of the next step) is written by the
//   match's own statement, and only by a match (`submitCurrentOtp`).
import type { Queryable } from '../db.ts';
import { smsTrafficRepo } from '../repositories/sms-traffic.ts';
import { type NewTempToken, tempTokensRepo } from '../repositories/temp-tokens.ts';
import { all, first, sql } from '../sql.ts';

/** A code as stored: its keyed hash, never the code. */
export interface NewOtp {
  id: string;
  phone: string;
  purpose: string;
  codeHash: string;
  createdAt: Date;
  expiresAt: Date;
}

/**
 * Stores the phone's new code for the purpose and ends the one before, in one statement. With `countedIn`, the
 * code counts as sent to that country (the SMS defence's traffic, attested or not) in that same statement.
 */
export async function storeOtp(
  q: Queryable,
  o: NewOtp,
  countedIn?: { country: string | undefined; attested: boolean },
): Promise<void> {
  const alongside =
    countedIn?.country && smsTrafficRepo.countSent(countedIn.country, o.createdAt, countedIn.attested);
  await all(
    q,
    sql`WITH ended AS (
        UPDATE otps SET consumed_at = ${o.createdAt}
        WHERE phone = ${o.phone} AND purpose = ${o.purpose} AND consumed_at IS NULL
      )${alongside ? sql`, alongside AS (${alongside})` : sql``}
      INSERT INTO otps (id, phone, purpose, code_hash, created_at, expires_at)
      VALUES (${o.id}, ${o.phone}, ${o.purpose}, ${o.codeHash}, ${o.createdAt}, ${o.expiresAt})`,
  );
}

/** Ends a code that was never delivered, unless it is used already. */
export async function withdrawOtp(q: Queryable, otpId: string, now: Date): Promise<void> {
  await all(q, sql`UPDATE otps SET consumed_at = ${now} WHERE id = ${otpId} AND consumed_at IS NULL`);
}

/** What one submission against the phone's current code found and did. */
export type OtpAttemptOutcome =
  | { kind: 'used' }
  | { kind: 'wrong'; attemptsRemaining: number }
  | { kind: 'burnt' }
  /** no live code for the phone and purpose: none sent, or the latest used or burnt */
  | { kind: 'none' }
  /** the current code has expired: not touched */
  | { kind: 'expired' }
  /** the current code was used, burnt or expired between its read and its count, by a submission alongside */
  | { kind: 'gone' };

export interface OtpSubmission {
  phone: string;
  purpose: string;
  /** the keyed hashes of the submitted code, one per key a stored code may have been hashed with (none: wrong) */
  submittedHashes: string[];
  maxAttempts: number;
  now: Date;
}

/** What a match writes beside it: its country's verified count, and the next step's temp token. */
export interface WhenUsed {
  verifiedIn?: string;
  tempToken?: NewTempToken;
}

/**
 * One submission against the phone's current code for the purpose, read and counted by one statement, with
 * what a match writes beside it (`used`: a row only on a match).
 */
export async function submitCurrentOtp(
  q: Queryable,
  s: OtpSubmission,
  whenUsed: WhenUsed = {},
): Promise<OtpAttemptOutcome> {
  const matches = sql`o.code_hash = ANY(${s.submittedHashes}::text[]) AND o.attempts < ${s.maxAttempts}`;
  const alongside = [
    ...(whenUsed.verifiedIn
      ? [sql`counted AS (${smsTrafficRepo.countVerifiedOnUse(whenUsed.verifiedIn, s.now)})`]
      : []),
    ...(whenUsed.tempToken ? [sql`issued AS (${tempTokensRepo.insertOnUse(whenUsed.tempToken)})`] : []),
  ];
  const row = await first<{
    found: boolean;
    consumed: boolean;
    expired: boolean;
    attempts: number | null;
    spent: boolean | null;
  }>(
    q,
    sql`WITH cur AS (
        SELECT id, consumed_at, expires_at FROM otps WHERE phone = ${s.phone} AND purpose = ${s.purpose}
        ORDER BY consumed_at IS NULL DESC, created_at DESC LIMIT 1
      ),
      attempt AS (
        UPDATE otps o SET
          attempts = o.attempts + CASE WHEN ${matches} THEN 0 ELSE 1 END,
          consumed_at = CASE
            WHEN ${matches} THEN ${s.now}::timestamptz
            WHEN o.attempts >= ${s.maxAttempts} THEN ${s.now}::timestamptz
            ELSE NULL END,
          verified_at = CASE WHEN ${matches} THEN ${s.now}::timestamptz ELSE NULL END
        FROM cur WHERE o.id = cur.id AND o.consumed_at IS NULL AND o.expires_at > ${s.now}
        RETURNING o.attempts, o.consumed_at IS NOT NULL AS spent
      ),
      used AS (SELECT 1 AS one FROM attempt WHERE spent AND attempts <= ${s.maxAttempts})
      ${alongside.length ? sql`, ${sql.join(alongside, ', ')}` : sql``}
      SELECT cur.id IS NOT NULL AS found, cur.consumed_at IS NOT NULL AS consumed,
        cur.expires_at <= ${s.now}::timestamptz AS expired, attempt.attempts, attempt.spent
      FROM (SELECT 1) one LEFT JOIN cur ON true LEFT JOIN attempt ON true`,
  );
  if (!row?.found || row.consumed) return { kind: 'none' };
  if (row.expired) return { kind: 'expired' };
  if (row.attempts === null) return { kind: 'gone' };
  if (!row.spent) return { kind: 'wrong', attemptsRemaining: s.maxAttempts - row.attempts };
  // A match leaves the count as it was (at most the maximum); a burn takes it past the maximum.
  return row.attempts > s.maxAttempts ? { kind: 'burnt' } : { kind: 'used' };
}
