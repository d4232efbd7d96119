// An App Attest key's counter, advanced by each assertion.
//
// Rules it enforces:
// - An assertion counts only when its counter is above the key's last: the counter is advanced in the same
//   statement that compares it, so of two assertions with the same counter (a replay, or two at once) exactly
//   one passes.
import type { Queryable } from '../db.ts';
import { all, sql } from '../sql.ts';

/** Advances the key's counter to `counter`; false when the key's counter is there or past it already. */
export async function advanceAttestCounter(q: Queryable, keyId: string, counter: number, now: Date) {
  const advanced = await all(
    q,
    sql`UPDATE app_attest_keys SET counter = ${counter}, last_used_at = ${now}
        WHERE key_id = ${keyId} AND counter < ${counter} RETURNING key_id`,
  );
  return advanced.length === 1;
}
