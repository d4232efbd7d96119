// Using a verification's temp token: the step between a verified phone and what it unlocks (sign-up, PIN
// reset), decided by one statement.
//
// Rules it enforces:
// - A temp token is used once: the statement that marks it used is the race gate, so of parallel requests
//   with the same token exactly one goes on; the others find it used.
// - It is bound to its purpose: a token verified for sign-up does not reset a PIN, nor the other way round.
// - It expires: after its lifetime it is refused, used or not.
// Called inside the transaction of what the token unlocks, so a failure there leaves the token unused.
import type { Queryable } from '../db.ts';
import { first, sql } from '../sql.ts';

export type TempTokenUse =
  | { consumed: true; phone: string; channel: string | null }
  | { consumed: false; refusal: 'unknown_used_or_expired' };

/** Marks the token (by its hash) used for `purpose`, and answers the phone it was issued for. */
export async function consumeTempToken(
  q: Queryable,
  tokenHash: string,
  purpose: string,
  now: Date,
): Promise<TempTokenUse> {
  const row = await first<{ phone: string; channel: string | null }>(
    q,
    sql`UPDATE temp_tokens SET used_at = ${now}
      WHERE token_hash = ${tokenHash} AND purpose = ${purpose} AND used_at IS NULL AND expires_at > ${now}
      RETURNING phone, channel`,
  );
  return row
    ? { consumed: true, phone: row.phone, channel: row.channel }
    : { consumed: false, refusal: 'unknown_used_or_expired' };
}
