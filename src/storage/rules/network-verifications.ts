// A silent proof of a number by its mobile network, decided by one statement at each of its two steps.
//
// Rules it enforces:
// - The device's return is taken once: of two returns with the same state (a reload, a replay), exactly one
//   claims the check and asks the network; the other finds it claimed. A return after the check was used (or
//   expired) is refused.
// - A proof is used once, within its lifetime: of parallel requests with the same verification exactly one
//   uses it; the others find it used. Once used, it answers nothing more.
// - A proof still waiting for the device's return is not used up, so the app may ask again, until the
//   network has had its time: after that it is used as the network not answering.
// - Where the device does not come back (the vendor is asked at completion), the completion claims the check
//   the same way, once; a vendor that has no answer yet releases it, so that the next completion asks again.
import type { Queryable } from '../db.ts';
import type { NetworkVerificationRow } from '../repositories/network-verifications.ts';
import { all, first, sql } from '../sql.ts';

/** Claims the check whose state (by its hash) came back, when no return claimed it and it has not expired. */
export function claimReturn(q: Queryable, stateHash: string, now: Date) {
  return first<NetworkVerificationRow>(
    q,
    sql`UPDATE network_verifications SET finished_at = ${now}
        WHERE state_hash = ${stateHash} AND finished_at IS NULL AND used_at IS NULL AND expires_at > ${now}
        RETURNING *`,
  );
}

/** Claims the check by its id, as a return would: for a vendor asked at completion, or an app's own return. */
export function claimById(q: Queryable, id: string, now: Date) {
  return first<NetworkVerificationRow>(
    q,
    sql`UPDATE network_verifications SET finished_at = ${now}
        WHERE id = ${id} AND finished_at IS NULL AND used_at IS NULL AND expires_at > ${now}
        RETURNING *`,
  );
}

/** Releases a claimed check the vendor had no answer for yet, unless an outcome was written. */
export function releaseClaim(q: Queryable, id: string) {
  return all(
    q,
    sql`UPDATE network_verifications SET finished_at = NULL WHERE id = ${id} AND outcome IS NULL`,
  );
}

/**
 * Uses the verification, unused and unexpired, once the network answered or its time to answer is over (it
 * started at or before `waitedSince`); undefined when it is unknown, used, expired or still waiting.
 */
export function useVerification(q: Queryable, id: string, now: Date, waitedSince: Date) {
  return first<NetworkVerificationRow>(
    q,
    sql`UPDATE network_verifications SET used_at = ${now}
        WHERE id = ${id} AND used_at IS NULL AND expires_at > ${now}
          AND (outcome IS NOT NULL OR created_at <= ${waitedSince})
        RETURNING *`,
  );
}
