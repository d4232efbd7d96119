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
import type { Queryable } from '../db.ts';
import type { NetworkVerificationRow } from '../repositories/network-verifications.ts';
import { first, sql } from '../sql.ts';

/** Claims the check whose state (by its hash) came back, when no return claimed it and it has not expired. */
export function claimReturn(q: Queryable, stateHash: string, now: Date) {
  return first<NetworkVerificationRow>(
    q,
    sql`UPDATE network_verifications SET finished_at = ${now}
        WHERE state_hash = ${stateHash} AND finished_at IS NULL AND used_at IS NULL AND expires_at > ${now}
        RETURNING *`,
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
